export { readChanges, type ChangeItem, type ChangePage } from "./change-feed";
export { lastSequence, positionTime, readCategoryPage, sectionsOf, type RecordPage, type SectionPage } from "./category-page";
export { feedCursor, pageCursor, type FeedPosition, type PagePosition, type ReadScope } from "./positions";
export { RAW_COLUMNS, sectionsSelect, sectionsValues, type SectionRow } from "./read-sql";

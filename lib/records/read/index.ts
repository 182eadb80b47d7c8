export { readChanges, type ChangeItem, type ChangePage } from "./change-feed";
export { lastSequence, readCategoryPage, readSections, type RecordPage, type SectionPage } from "./category-page";
export { feedCursor, pageCursor, type FeedPosition, type PagePosition, type ReadScope } from "./positions";

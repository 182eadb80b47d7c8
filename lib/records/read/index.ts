export { readChanges, type ChangeItem, type ChangePage } from "./change-feed";
export { lastSequence, readCategoryPage, type RecordPage } from "./category-page";
export { feedCursor, pageCursor, type FeedPosition, type PagePosition, type ReadScope } from "./positions";

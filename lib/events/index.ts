export { recordEvent, type EventType } from "./record-event";

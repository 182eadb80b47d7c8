export { prepareNextApp, type NextApp } from "./next-app";
export { closePlatformServer, createPlatformServer } from "./platform-server";
export type { NextHandler } from "./platform-handler";
export { directApiHandler, type DirectApiHandler } from "./direct-api";
export { canonicalPath, splitTarget } from "./request-target";

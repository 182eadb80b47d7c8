export { prepareNextApp, type NextApp } from "./next-app";
export { closePlatformServer, createPlatformServer } from "./platform-server";
export { directApiHandler, prepareDirectApi, type DirectApiHandler } from "./direct-api";

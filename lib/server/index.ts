export { prepareNextApp, type NextApp } from "./next-app";
export { closePlatformServer, createPlatformServer } from "./platform-server";
export type { NextHandler } from "./platform-handler";
export { directApiHandler, prepareDirectApi, type DirectApiHandler } from "./direct-api";
export { API_FOLDERS } from "./api-families";
export { loadApiRoutes, matchRoute, type ApiRouteTable } from "./api-routes";

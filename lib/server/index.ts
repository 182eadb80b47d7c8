export { prepareNextApp, type NextApp } from "./next-app";
export { closePlatformServer, createPlatformServer } from "./platform-server";

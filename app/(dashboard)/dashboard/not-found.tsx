// notFound() from the application layout (requireApplication: an application the developer has no part in, or
// none) is caught here, one segment up, so every page of an application says the same thing.
export { default } from "./[appId]/not-found";

// The route kit: every API operation is a declaration plus a handler, served through one pipeline per family.
export type { AuthKind, Principals } from "./authenticators";
export { defineOperation, operationName, type HttpMethod, type OperationDeclaration, type ResponseDeclaration } from "./operation";
export { FHIR_PROFILE, NO_STORE, PLATFORM_PROFILE, PUBLIC_PROFILE, type Profile, type ProfileName } from "./profiles";
export type { Handler, HandlerArgs } from "./handler";
export { route, type DeclaredHandler, type NextRouteContext } from "./route";
export type { RouteExports } from "./serve";
export { documentedErrors, documentedHeaders } from "./documented";
export type { ApiDispatcher } from "./dispatch";
export { routeTable, type RouteTable } from "./route-table";
export { pathId } from "./path-id";

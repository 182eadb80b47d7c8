// The route kit: every API operation is a declaration plus a handler, served through one pipeline per family.
export { AUTHENTICATORS, type AuthKind, type Principals } from "./authenticators";
export { defineOperation, operationName, type HttpMethod, type OperationDeclaration, type ResponseDeclaration } from "./operation";
export { corsHeaders, FHIR_PROFILE, NO_STORE, PLATFORM_PROFILE, PUBLIC_PROFILE, type Profile, type ProfileName } from "./profiles";
export { route, type DeclaredHandler, type Handler, type HandlerArgs, type NextRouteContext } from "./route";
export { serve, unknownPath, type RouteExports } from "./serve";
export { PIPELINE } from "./steps";
export { documentedErrors, documentedHeaders } from "./documented";
export { apiDispatcher, setApiDispatcher, type ApiDispatcher } from "./dispatch";
export { pathId } from "./path-id";

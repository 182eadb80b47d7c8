export * from "./errors";
export * from "./schemas";
export * from "./sign-in";
export * from "./sign-up";
export { claimPasswordCheck, PASSWORD_CHECK_POLICY, SIGN_IN_ACCOUNT_POLICY, SIGN_IN_ADDRESS_POLICY } from "./throttle";

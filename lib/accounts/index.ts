export * from "./errors";
export * from "./schemas";
export * from "./sign-in";
export * from "./sign-up";
export { claimPasswordCheck, PASSWORD_CHECK_POLICY, PASSWORD_RESET_ACCOUNT_POLICY, PASSWORD_RESET_ADDRESS_POLICY, SIGN_IN_ACCOUNT_POLICY, SIGN_IN_ADDRESS_POLICY, VERIFICATION_EMAIL_POLICY } from "./throttle";
export * from "./email-tokens";
export * from "./email-verification";
export * from "./password-reset";
export * from "./email-language";

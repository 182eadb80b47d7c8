export * from "./scenarios";

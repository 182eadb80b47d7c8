import type { Environment } from "./api-key-format";

export type KeyAuth = {
  kind: "key";
  apiKeyId: string;
  environment: Environment;
  conformanceRunId: string | null;
  application: {
    id: string;
    name: string;
    status: "sandbox" | "active" | "suspended";
    productionEnabled: boolean;
    categoryAllowlist: string[];
    syncMode: "one_time" | "continuous";
  };
};

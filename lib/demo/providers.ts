import { PROVIDERS } from "@/lib/sandbox";
import { demoList } from "./demo-list";

/** GET /providers: the fictional health systems, without the fixture details behind them. */
export function listDemoProviders() {
  return demoList(PROVIDERS.map(({ id, name, city, state, description }) => ({ id, name, city, state, description })));
}

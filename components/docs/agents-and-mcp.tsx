import { AgentCredentialsGuide, McpGuide } from "@/components/docs/agent-guides";
import { dashboardOrigin } from "@/lib/dashboard";
import { toolCatalog } from "@/lib/openapi";

/** The agents guide's worked examples, with this deployment's addresses and its MCP servers' tools. */
export async function AgentsAndMcp() {
  // Addresses in the copyable examples are the ones the page was reached at.
  const origin = await dashboardOrigin();
  return (
    <div className="mt-8 space-y-16">
      <AgentCredentialsGuide origin={origin} />
      <McpGuide origin={origin} platformTools={toolCatalog("platform").tools} demoTools={toolCatalog("demo").tools} />
    </div>
  );
}

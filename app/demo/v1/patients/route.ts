import { route, serve } from "@/lib/api";
import { demoList, listDemoPatients, patientScenarios, presentPatient } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(listDemoPatients, () => ({ body: demoList(patientScenarios().map(presentPatient)) })),
});

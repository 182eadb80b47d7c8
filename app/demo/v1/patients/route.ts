import { demoList } from "@/lib/demo/demo-list";
import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { presentPatient } from "@/lib/demo/patients";
import { patientScenarios } from "@/lib/demo/scenario-manifest";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ handler: () => ({ body: demoList(patientScenarios().map(presentPatient)) }) }),
});

import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { DATA_NOTICE } from "@/lib/demo/notice";
import { patientOr404, presentPatient } from "@/lib/demo/patients";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    handler: ({ params }) => ({ body: { ...presentPatient(patientOr404(params.patientId ?? "")), notice: DATA_NOTICE } }),
  }),
});

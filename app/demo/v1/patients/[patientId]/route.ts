import { route, serve } from "@/lib/api";
import { DATA_NOTICE, getDemoPatient, patientOr404, presentPatient } from "@/lib/demo";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = serve({
  GET: route(getDemoPatient, ({ params }) => ({ body: { ...presentPatient(patientOr404(params.patientId)), notice: DATA_NOTICE } })),
});

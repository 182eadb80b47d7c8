import { platformOrigin } from "@/lib/config";
import { attachSource, CALLBACK_PATH } from "@/lib/connect";
import { db } from "@/lib/db";
import { issueAuthorizationCodeDirectly, simulatedEhrPatientKey } from "@/lib/ehr";
import { beginAuthorization, completeAuthorization } from "@/lib/sources";

/**
 * The synthetic patient signs in at one scenario source's health system, as a browser sign-in does but without the
 * page: the SMART client begins the launch, the synthetic EHR issues the code for this patient's own instance
 * (`{scenario}.{sourceKey}.{patientId}`, so its phase is its own), the client exchanges it, and the source is attached
 * to the session's subject with its sealed tokens. Returns the source id.
 */
export async function connectSimulatedSource(input: { sessionId: string; scenarioId: string; sourceKey: string; providerId: string; patientId: string }): Promise<string> {
  const begun = await beginAuthorization({ connectSessionId: input.sessionId, providerId: input.providerId, redirectUri: `${platformOrigin()}${CALLBACK_PATH}` });
  const callbackUrl = await issueAuthorizationCodeDirectly({
    authorizationUrl: begun.authorizationUrl,
    patientKey: simulatedEhrPatientKey(input.scenarioId, input.sourceKey, input.patientId),
  });
  const completed = await completeAuthorization({ state: begun.state, callbackUrl });
  const sourceId = await attachSource(completed.connectSessionId, completed.providerId, completed.tokens);
  await db().source.update({ where: { id: sourceId }, data: { sourceKey: input.sourceKey } });
  return sourceId;
}

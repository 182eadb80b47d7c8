import { encryptSecret } from "@/lib/auth";
import { db, Prisma, withTransaction } from "@/lib/db";
import { newId } from "@/lib/ids";
import { recordAudit } from "@/lib/audit";
import { operatorActor, requireOperator } from "@/lib/operators";
import { NotFoundError, TeamError } from "@/lib/team";
import { discoverProvider, type DiscoveryResult, type ProviderDiscovery } from "./discover";
import { createProviderInputSchema, providerUrlInputSchema, updateProviderInputSchema, type CreateProviderInput, type UpdateProviderInput } from "./schemas";

/** A live provider as the operator sees it: never its secret, only whether one is stored. */
export type DirectoryProvider = {
  id: string;
  name: string;
  location: string;
  fhirBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  hasSecret: boolean;
  disabled: boolean;
  discovery: ProviderDiscovery | null;
  checkedAt: Date | null;
  checkError: string | null;
  createdAt: Date;
};

const FIELDS = {
  id: true,
  name: true,
  location: true,
  fhirBaseUrl: true,
  authorizeUrl: true,
  tokenUrl: true,
  clientId: true,
  clientSecretEncrypted: true,
  disabledAt: true,
  discovery: true,
  checkedAt: true,
  checkError: true,
  createdAt: true,
} as const;

function present(row: Prisma.ProviderGetPayload<{ select: typeof FIELDS }>): DirectoryProvider {
  const { clientSecretEncrypted, disabledAt, discovery, ...rest } = row;
  return { ...rest, hasSecret: clientSecretEncrypted !== "", disabled: disabledAt !== null, discovery: (discovery as ProviderDiscovery | null) ?? null };
}

/** The live provider directory, enabled first, then by name. Operators only. */
export async function listLiveProviders(operatorId: string): Promise<DirectoryProvider[]> {
  await requireOperator(operatorId);
  const rows = await db().provider.findMany({ where: { environment: "live" }, select: FIELDS, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return rows.map(present).sort((a, b) => Number(a.disabled) - Number(b.disabled));
}

/** What the platform finds at a FHIR base URL, before anything is saved (the operator's "Look up" step). */
export async function previewProvider(operatorId: string, input: { fhirBaseUrl: string }): Promise<DiscoveryResult> {
  await requireOperator(operatorId);
  return discoverProvider(providerUrlInputSchema.parse(input).fhirBaseUrl);
}

/**
 * Adds a live health system: discovery must succeed now (its endpoints are stored from it), the client secret is
 * stored encrypted (lib/auth secret-box) and the audit entry names the provider, never the secret.
 */
export async function createLiveProvider(operatorId: string, input: CreateProviderInput): Promise<DirectoryProvider> {
  const operator = await requireOperator(operatorId);
  const data = createProviderInputSchema.parse(input);
  const found = await discoverProvider(data.fhirBaseUrl);
  if (!found.ok) throw new TeamError("invalid_input", `The health system could not be added: ${found.reason}.`);
  return withTransaction("ReadCommitted", async (tx) => {
    if (await tx.provider.count({ where: { environment: "live", fhirBaseUrl: found.fhirBaseUrl } })) {
      throw new TeamError("invalid_input", "A live provider with this FHIR base URL is already in the directory.");
    }
    const row = await tx.provider.create({
      data: {
        id: newId("prov_"),
        environment: "live",
        name: data.name,
        location: data.location,
        fhirBaseUrl: found.fhirBaseUrl,
        authorizeUrl: found.discovery.authorizeUrl,
        tokenUrl: found.discovery.tokenUrl,
        clientId: data.clientId,
        clientSecretEncrypted: data.clientSecret ? encryptSecret(data.clientSecret) : "",
        discovery: found.discovery as unknown as Prisma.InputJsonValue,
        checkedAt: new Date(),
      },
      select: FIELDS,
    });
    await recordAudit(tx, { action: "provider.create", actor: operatorActor(operator), targetType: "provider", targetId: row.id, after: { name: row.name, fhirBaseUrl: row.fhirBaseUrl, clientId: row.clientId, clientSecretSet: Boolean(data.clientSecret) } });
    return present(row);
  });
}

async function liveProvider(id: string) {
  const row = await db().provider.findFirst({ where: { id, environment: "live" }, select: FIELDS });
  if (!row) throw new NotFoundError("The provider");
  return row;
}

/** Renames, changes the location (when given), the client id and (when given) replaces the secret. */
export async function updateLiveProvider(operatorId: string, providerId: string, input: UpdateProviderInput): Promise<DirectoryProvider> {
  const operator = await requireOperator(operatorId);
  const data = updateProviderInputSchema.parse(input);
  const before = await liveProvider(providerId);
  return withTransaction("ReadCommitted", async (tx) => {
    const row = await tx.provider.update({
      where: { id: providerId },
      data: { name: data.name, ...(data.location === undefined ? {} : { location: data.location }), clientId: data.clientId, ...(data.clientSecret ? { clientSecretEncrypted: encryptSecret(data.clientSecret) } : {}) },
      select: FIELDS,
    });
    await recordAudit(tx, { action: "provider.update", actor: operatorActor(operator), targetType: "provider", targetId: row.id, before: { name: before.name, clientId: before.clientId }, after: { name: row.name, clientId: row.clientId, clientSecretChanged: Boolean(data.clientSecret) } });
    return present(row);
  });
}

/** Disables (Connect no longer offers it; existing sources keep their rows) or enables a live provider again. */
export async function setLiveProviderDisabled(operatorId: string, providerId: string, disabled: boolean): Promise<DirectoryProvider> {
  const operator = await requireOperator(operatorId);
  await liveProvider(providerId);
  return withTransaction("ReadCommitted", async (tx) => {
    const row = await tx.provider.update({ where: { id: providerId }, data: { disabledAt: disabled ? new Date() : null }, select: FIELDS });
    await recordAudit(tx, { action: disabled ? "provider.disable" : "provider.enable", actor: operatorActor(operator), targetType: "provider", targetId: row.id, before: { name: row.name, disabled: !disabled }, after: { name: row.name, disabled } });
    return present(row);
  });
}

/**
 * Tests the connection: discovery runs again under the outbound rules; the result (what was found, or why it
 * failed or was refused) is stored on the row for the directory and the audit log.
 */
export async function testLiveProvider(operatorId: string, providerId: string): Promise<DirectoryProvider> {
  const operator = await requireOperator(operatorId);
  const current = await liveProvider(providerId);
  const found = await discoverProvider(current.fhirBaseUrl);
  return withTransaction("ReadCommitted", async (tx) => {
    const row = await tx.provider.update({
      where: { id: providerId },
      data: found.ok
        ? { checkedAt: new Date(), checkError: null, discovery: found.discovery as unknown as Prisma.InputJsonValue, authorizeUrl: found.discovery.authorizeUrl, tokenUrl: found.discovery.tokenUrl }
        : { checkedAt: new Date(), checkError: found.reason },
      select: FIELDS,
    });
    await recordAudit(tx, { action: "provider.test", actor: operatorActor(operator), targetType: "provider", targetId: row.id, after: { passed: found.ok, reason: found.ok ? null : found.reason } });
    return present(row);
  });
}

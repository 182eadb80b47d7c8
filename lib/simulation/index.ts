// Sandbox simulation: completing Connect sessions with synthetic patients, the sandbox controls on the users they
// create, and the purge of those patients.
export { simulateConnectSessionOperation, triggerSandboxEventOperation } from "./operations";
export { applySubjectControl, triggerSandboxEvent } from "./sandbox-events";
export { purgeSyntheticPatients } from "./purge-cycle";
export { revokeAsPatient, runSimulation, sandboxSimulationJob } from "./run-simulation";
export * from "./schemas";
export { continueSimulation, simulateApplicationSession, simulateConnectSession, SYNTHETIC_PATIENT_DAYS } from "./simulate";
export { dashboardSandboxAuth, listSandboxSubjects, readSandboxRecords, type SandboxSubject } from "./sandbox-dashboard";

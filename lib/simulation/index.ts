// Sandbox simulation: completing Connect sessions with synthetic patients, the sandbox controls on the users they
// create, and the purge of those patients.
export { simulateConnectSession, triggerSandboxEvent } from "./operations";
export { triggerSandboxEvent as applySandboxEvent } from "./sandbox-events";
export { purgeSyntheticPatients } from "./purge-cycle";
export { runSimulation, sandboxSimulationJob } from "./run-simulation";
export * from "./schemas";
export { continueSimulation, simulateSession, SYNTHETIC_PATIENT_DAYS } from "./simulate";
export { dashboardSandboxAuth, listSandboxSubjects, readSandboxRecords, type SandboxSubject } from "./sandbox-dashboard";

import type { z } from "zod";
import type { RouteResult } from "@/lib/http";
import type { AuthKind, Principals } from "./authenticators";

// What an operation's handler receives and answers; the pipeline (route.ts, steps.ts) runs it.
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export type HandlerArgs<A extends AuthKind, P, Q, B> = {
  request: Request;
  url: URL;
  requestId: string;
  auth: Principals[A];
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /**
   * The subject a delegated credential is bound to when one made the request (null for the key itself): for reads
   * whose subject is not a path parameter the pipeline checks (the FHIR API's searches and reads by resource id).
   */
  agentSubject: string | null;
  /**
   * Names the subject whose records the answer discloses, for the request log (and so the patient's disclosure
   * history), where no path parameter names it (the FHIR API's searches, reads by resource id, `u-` Patient ids).
   */
  logSubject: (subjectId: string) => void;
  /** Sets a response header whether the handler then returns or throws (a simulated scenario names itself). */
  setHeader: (name: string, value: string) => void;
};

/** A handler's answer: JSON (in the operation's declared content type), or a Response it built itself. */
export type HandlerResult = RouteResult | Response;

export type Handler<A extends AuthKind, P, Q, B> = (args: HandlerArgs<A, P, Q, B>) => HandlerResult | Promise<HandlerResult>;

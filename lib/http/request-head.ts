/** What the API pipeline reads of every request before its handler runs: method, URL and headers. A Request is one. */
export type RequestHead = { readonly method: string; readonly url: string; readonly headers: HeaderReader };

/** A request's headers as Headers reads them: case-insensitive names, repeated fields joined with ", ". */
export type HeaderReader = { get(name: string): string | null };

/**
 * A request whose fetch Request is made only when something needs one (a body read, a handler that takes the
 * Request); its method, URL and headers are read without it. Building a Request (its Headers, its AbortSignal) was
 * the largest single piece of the JavaScript a key check ran, for requests that never use it (docs/architecture.md,
 * "Keyed requests").
 */
export class DeferredRequest implements RequestHead {
  #request: Request | undefined;
  /** As its Request would serialize it. */
  readonly url: string;

  constructor(
    readonly method: string,
    /** The URL, parsed once by whoever made the request (see requestUrl). */
    readonly parsedUrl: URL,
    readonly headers: HeaderReader,
    private readonly make: () => Request,
  ) {
    this.url = parsedUrl.href;
  }

  get request(): Request {
    return (this.#request ??= this.make());
  }
}

/**
 * The request's URL parsed: a deferred request's (every request the platform server serves directly) as it was
 * made, read by the route table, the pipeline and the handler alike, so read only; a fetch Request's parsed anew.
 */
export function requestUrl(incoming: IncomingRequest): URL {
  return incoming instanceof DeferredRequest ? incoming.parsedUrl : new URL(incoming.url);
}

/** A request as the API families serve it: a fetch Request (Next.js, MCP, tests) or one made on demand. */
export type IncomingRequest = Request | DeferredRequest;

/** The fetch Request of an incoming request, made now if it was deferred. */
export function fetchRequest(incoming: IncomingRequest): Request {
  return incoming instanceof DeferredRequest ? incoming.request : incoming;
}

package httpapi

// CodeServerBusy is the extensions.code of a 503 answered when the server
// has too many requests in flight, or too many large answers waiting for
// slow clients, to take one more. The answer carries Retry-After.
const CodeServerBusy = "SERVER_BUSY"

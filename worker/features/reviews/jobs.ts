// What a reviews queue job answers (issue 28): done (ack) or retry (the consumer retries the message with backoff).
export type ReviewJobOutcome = { kind: "done" } | { kind: "retry"; reason: string };

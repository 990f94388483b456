// The Twilio fake's credentials and scenario numbers, shared by the fake (Node) and the worker tests (workerd).
export const FAKE_TWILIO_ACCOUNT_SID = 'AC00000000000000000000000000000001';
export const FAKE_TWILIO_AUTH_TOKEN = 'fake-twilio-auth-token-0123456789';
export const FAKE_TWILIO_MESSAGING_SERVICE_SID = 'MG00000000000000000000000000000001';
/** A number that opted out at Twilio: the API answers 21610. */
export const FAKE_TWILIO_UNSUBSCRIBED = '+15005550009';
/** A number whose message the API answers 500 to. */
export const FAKE_TWILIO_DOWN = '+15005550500';

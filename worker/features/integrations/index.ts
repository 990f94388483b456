// What other capabilities use of integrations: everything else in this folder is its own.
export { revokeGrant, withAccessToken } from "./connection";
export { scheduledPostJob, connectionsOf, deleteExpiredOauthStates, deleteScheduledPost, duePosts, failStaleClaims, findConnection, findScheduledPost, insertScheduledPost, listScheduledPosts, markReminded, markSynced, parseLocations, recordConnectionError, scheduledPostJson, settlePost, updateScheduledPost, type ScheduledPostRow } from "./queries";

// What other capabilities use of pipeline: nothing yet. It hears the lead loop's events (prospect.activity,
// prospect.stage-set, account.confirmed) through the registry.
export {};

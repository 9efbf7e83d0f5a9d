// The wire types of native-ads (contract version 1, docs/wire-format.md, docs/sdk-behaviour.md,
// docs/mediation.md). Every shape here is what the server sends or accepts; fields that the
// server may add in later versions are allowed by the index-free interfaces (TypeScript is
// structural, extra fields are simply not named).
export {};

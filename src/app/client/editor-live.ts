// The editor (docs/app.md "Editor"): filled in with the documents stage.
export function startEditor(): void {}

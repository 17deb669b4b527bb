// Whose layers a screen manages: a tenant admin's own (/reference-layers/, which also lists the provider's, read-only)
// or provider staff's provider-wide layers (/base/reference-layers/). docs/decisions/0073-reference-layer-versions.md.
export type LayerScope = 'tenant' | 'provider';

export const layersBase = (scope: LayerScope) => (scope === 'provider' ? '/base/reference-layers/' : '/reference-layers/');

/** Statuses during which a layer's background job is still running (the list and the drawer poll until it ends). */
export const RUNNING_STATUSES = new Set(['queued', 'loading', 'screening']);

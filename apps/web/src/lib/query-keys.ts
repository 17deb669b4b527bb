// Every TanStack Query key of the console comes from this factory. A key starts with its resource, so a mutation can
// refresh all of a resource at once (`queryKeys.farms.all`) and two screens that read the same data share the cache.
// Keys are plain arrays: the factory only names them, it does not change how they are compared.

type Params = Record<string, unknown>;
/** A record's id; null or undefined while the record is not chosen yet (the query is then disabled). */
type Id = string | null | undefined;

export const queryKeys = {
  activityLogs: {
    all: ['activity-logs'] as const,
    page: (params: Params) => ['activity-logs', params] as const,
  },
  agents: {
    all: ['agents'] as const,
    page: (params: Params) => ['agents', 'page', params] as const,
    detail: (id: Id) => ['agents', 'detail', id] as const,
    ofTenant: (params: Params) => ['agents', 'tenant', params] as const,
    dashboard: ['agents', 'dashboard'] as const,
    ranking: ['agents', 'ranking'] as const,
  },
  analyses: {
    all: ['custom-analysis'] as const,
    page: (params: Params) => ['custom-analysis', params] as const,
    one: (id: Id) => ['custom-analysis', 'one', id] as const,
    map: (id: Id, bbox: unknown) => ['custom-analysis', 'map', id, bbox] as const,
    farms: (id: Id, kind: string, page: number, pageSize: number) => ['custom-analysis', 'farms', id, kind, page, pageSize] as const,
    /** The reference layers an analysis may choose (GET /reference-layers/, read by the upload wizard). */
    referenceLayers: ['custom-analysis', 'reference-layers'] as const,
  },
  analytics: {
    all: ['analytics'] as const,
    counts: ['analytics', 'counts'] as const,
    mapped: (range: unknown) => ['analytics', 'mapped', range] as const,
    provider: (name: string, ...rest: unknown[]) => ['analytics', 'provider', name, ...rest] as const,
  },
  eudrReports: {
    all: ['eudr-reports'] as const,
    summary: ['eudr-reports', 'summary'] as const,
    plots: (params: Params) => ['eudr-reports', 'plots', params] as const,
    dueDiligence: (params: Params) => ['eudr-reports', 'due-diligence', params] as const,
    tenantReadiness: ['eudr-reports', 'tenant-readiness'] as const,
  },
  auth: {
    resetToken: (token: Id) => ['auth', 'reset-token', token] as const,
    mfaSetup: (userToken: Id) => ['auth', 'mfa-setup', userToken] as const,
  },
  consoleConfig: ['console-config'] as const,
  farmers: {
    all: ['farmers'] as const,
    page: (params: Params) => ['farmers', 'page', params] as const,
    detail: (id: Id) => ['farmers', 'detail', id] as const,
    farms: (farmerId: Id) => ['farmers', 'farms', farmerId] as const,
    farm: (farmerId: Id, farmId: Id) => ['farmers', 'farm', farmerId, farmId] as const,
  },
  farms: {
    all: ['farms'] as const,
    page: (params: Params) => ['farms', 'page', params] as const,
    detail: (id: Id) => ['farms', 'detail', id] as const,
    history: (id: Id) => ['farms', 'history', id] as const,
    overlapping: (id: Id) => ['farms', 'overlapping', id] as const,
    overview: ['farms', 'overview'] as const,
    map: (filter: Params) => ['farms', 'map', filter] as const,
    global: ['farms', 'global'] as const,
    perState: ['farms', 'per-state'] as const,
    regional: (countryCode: Id) => ['farms', 'regional', countryCode] as const,
    ofTenant: (params: Params) => ['farms', 'tenant-captures', params] as const,
    provider: {
      page: (params: Params) => ['farms', 'provider', 'page', params] as const,
      overview: (tenantId: Id) => ['farms', 'provider', 'overview', tenantId] as const,
      map: (filter: Params) => ['farms', 'provider', 'map', filter] as const,
    },
  },
  headerSearch: (area: string, search: string) => ['header-search', area, search] as const,
  licenses: {
    all: ['licenses'] as const,
    page: (params: Params) => ['licenses', 'list', params] as const,
    own: ['licenses', 'own'] as const,
  },
  lookups: {
    countries: ['countries'] as const,
    states: (countryId: Id) => ['states', countryId] as const,
    cities: (countryId: Id, search: string) => ['cities', countryId, search] as const,
    regions: ['regions'] as const,
  },
  operationalAreas: {
    all: ['operational-areas'] as const,
    page: (params: Params) => ['operational-areas', 'page', params] as const,
    every: ['operational-areas', 'all'] as const,
    outlines: ['operational-areas', 'outlines'] as const,
    /** Every area matching a region and a search (pages of 100 read until the end). */
    choices: (filter: Params) => ['operational-areas', 'choices', filter] as const,
  },
  profile: (id: Id) => ['profile', id] as const,
  /** Reference layers (EUDR): a layer change refreshes the lists, the progress and every farm's screening at once. */
  referenceLayers: {
    all: ['reference-layers'] as const,
    list: (scope: string, params: Params) => ['reference-layers', 'list', scope, params] as const,
    progress: (scope: string, id: Id) => ['reference-layers', 'progress', scope, id] as const,
    riskSettings: ['reference-layers', 'risk-settings'] as const,
    screenings: ['reference-layers', 'screening'] as const,
    screening: (farmId: Id) => ['reference-layers', 'screening', farmId] as const,
    evidence: (farmId: Id) => ['reference-layers', 'evidence', farmId] as const,
  },
  tenantConfiguration: ['tenant-configuration'] as const,
  webhooks: {
    all: ['webhooks'] as const,
    list: ['webhooks', 'list'] as const,
    deliveries: (endpointId: Id, params: Params) => ['webhooks', 'deliveries', endpointId, params] as const,
  },
  tenants: {
    all: ['tenants'] as const,
    page: (params: Params) => ['tenants', 'list', params] as const,
    one: (id: Id) => ['tenants', 'one', id] as const,
    options: (search: string) => ['tenants', 'options', search] as const,
  },
} as const;

// Every route path of the console, in one place: the route table (app/router.tsx), the sidebars, the header search and
// every link or navigate() build their addresses from here. The address parameters the screens read (?agent, ?farmer_id,
// ?view...) are part of the paths the browser tests and the header search open, so they are built here too.

/** The two console areas. */
export const PROVIDER_BASE = '/super-admin';
export const TENANT_BASE = '/admin';

/** The sections of the provider area: a route's segment under /super-admin, and the sidebar item's key. */
export const PROVIDER_SECTIONS = {
  dashboard: 'dashboard',
  tenants: 'tenant',
  licenses: 'license',
  farmlands: 'farmlands',
  reports: 'reports',
  referenceLayers: 'reference-layers',
  activityLog: 'activity-log',
  profile: 'profile',
} as const;

/** The sections of the tenant area, under /admin. */
export const TENANT_SECTIONS = {
  dashboard: 'dashboard',
  farmers: 'farmers',
  agents: 'agents',
  farmlands: 'mapping',
  operationalAreas: 'operational-areas',
  reports: 'reports',
  referenceLayers: 'reference-layers',
  farmAnalysis: 'farm-analysis',
  configurations: 'configurations',
  activityLog: 'activity-log',
  profile: 'profile',
} as const;

/** The due-diligence report's segment under the tenant's Reports. */
export const DUE_DILIGENCE_SEGMENT = 'due-diligence';

const provider = (section: string) => `${PROVIDER_BASE}/${section}`;
const tenant = (section: string) => `${TENANT_BASE}/${section}`;
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
};

export const paths = {
  home: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  onboarding: '/onboarding',
  notForAgents: '/not-for-agents',
  provider: {
    dashboard: provider(PROVIDER_SECTIONS.dashboard),
    tenants: provider(PROVIDER_SECTIONS.tenants),
    tenant: (uuid: string) => `${provider(PROVIDER_SECTIONS.tenants)}/${uuid}`,
    licenses: provider(PROVIDER_SECTIONS.licenses),
    /** The farmlands overview, at a place on its map when lat and lng are given. */
    farmlands: (at?: { lat: number; lng: number }) => withQuery(provider(PROVIDER_SECTIONS.farmlands), at ? { lat: String(at.lat), lng: String(at.lng) } : {}),
    reports: provider(PROVIDER_SECTIONS.reports),
    referenceLayers: provider(PROVIDER_SECTIONS.referenceLayers),
    activityLog: provider(PROVIDER_SECTIONS.activityLog),
    profile: provider(PROVIDER_SECTIONS.profile),
  },
  tenant: {
    dashboard: tenant(TENANT_SECTIONS.dashboard),
    /** The farmers list, with a farmer's drawer (and one of its farms) open when given. */
    farmers: (open?: { farmer: string; farm?: string }) =>
      withQuery(tenant(TENANT_SECTIONS.farmers), open ? { farmer_id: open.farmer, view: 'list', farm_id: open.farm } : {}),
    /** The agents list, with an agent's drawer open, or the wizard creating (new) or editing one. */
    agents: (open?: { agent: string } | { new: true } | { edit: string }) =>
      withQuery(tenant(TENANT_SECTIONS.agents), !open ? {} : 'agent' in open ? { agent: open.agent } : 'edit' in open ? { edit: open.edit } : { new: '1' }),
    farmlands: tenant(TENANT_SECTIONS.farmlands),
    operationalAreas: tenant(TENANT_SECTIONS.operationalAreas),
    reports: tenant(TENANT_SECTIONS.reports),
    referenceLayers: tenant(TENANT_SECTIONS.referenceLayers),
    /** The printable EUDR due-diligence report of an operational area's plots, or of named farms (ids joined by commas). */
    dueDiligence: (choice: { area_id: string } | { farm_ids: string }) => withQuery(`${tenant(TENANT_SECTIONS.reports)}/${DUE_DILIGENCE_SEGMENT}`, choice),
    farmAnalysis: tenant(TENANT_SECTIONS.farmAnalysis),
    analysis: (id: string) => `${tenant(TENANT_SECTIONS.farmAnalysis)}/${id}`,
    configurations: tenant(TENANT_SECTIONS.configurations),
    activityLog: tenant(TENANT_SECTIONS.activityLog),
    profile: tenant(TENANT_SECTIONS.profile),
  },
} as const;

// The operationId of every documented route, keyed by METHOD and path as registered (the authorization matrix's keys).
// Written by hand, never derived from the path at runtime: an operationId is the SDK's method name, so renaming a route
// must not rename it. openapi.test.ts fails for a documented route without a row, for a row without a route, and for a
// name used twice. `codes` lists the route's own Problem codes (by status) beyond the ones every route of its kind can
// answer (plugins/openapi/problem-responses.ts); `statuses` adds a 4xx that its kind does not imply.
import type { z } from 'zod';
import { captureFarmBody, createAnalysisBody, updateFarmBody } from '@farmland/contracts';

export type OperationRow = {
  id: string;
  /**
   * The JSON body of a route that reads its body itself (JSON or multipart/form-data, so no body schema on the route):
   * documented from the same contract schema the route parses with.
   */
  body?: z.ZodType;
  /** The route takes an Idempotency-Key header (modules/idempotency; docs/decisions/0061-idempotency-key.md). */
  idempotencyKey?: true;
  /** Route-specific Problem codes by status (added to the generic ones). */
  codes?: Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 422 | 429, readonly string[]>>;
};

export const operations: Record<string, OperationRow> = {
  // operations
  'GET /api/health': { id: 'getHealth' },
  'GET /api/health/ready': { id: 'getReadiness' },
  'GET /api/ready': { id: 'getReady' },
  'GET /api/metrics': { id: 'getMetrics' },
  'GET /api/config': { id: 'getConsoleConfig' },
  'GET /api/crypto/key': { id: 'getPayloadKey' },
  // auth
  'POST /api/auth/login/': {
    id: 'login',
    codes: {
      401: ['invalid_credentials'],
      403: ['account_suspended', 'account_inactive', 'tenant_inactive', 'tenant_suspended', 'license_revoked', 'license_expired'],
      429: ['too_many_attempts'],
    },
  },
  'POST /api/auth/setup-mfa/': { id: 'setupMfa', codes: { 400: ['invalid_mfa_token'], 409: ['mfa_already_enabled'] } },
  'POST /api/auth/confirm-mfa/': { id: 'confirmMfa', codes: { 400: ['invalid_mfa_token', 'invalid_mfa_code', 'mfa_code_reused'], 429: ['too_many_attempts'] } },
  'POST /api/auth/login/confirm': {
    id: 'confirmLogin',
    codes: { 400: ['invalid_mfa_token', 'invalid_mfa_code', 'mfa_code_reused', 'mfa_setup_required'], 429: ['too_many_attempts'] },
  },
  'POST /api/auth/token/refresh/': {
    id: 'refreshToken',
    codes: { 401: ['refresh_token_invalid', 'refresh_token_reused', 'session_revoked'], 403: ['account_suspended', 'account_inactive'] },
  },
  'POST /api/auth/logout/': { id: 'logout' },
  'POST /api/auth/admin-login/': { id: 'adminLinkLogin', codes: { 400: ['105'], 401: ['invalid_credentials'] } },
  'POST /api/auth/:id/reset-mfa/': { id: 'resetUserMfa' },
  'POST /api/auth/password/update/': { id: 'updatePassword' },
  'POST /api/auth/password/reset/': { id: 'requestPasswordReset', codes: { 429: ['too_many_attempts'] } },
  'POST /api/auth/password/confirm-reset-token/': { id: 'checkPasswordResetToken', codes: { 400: ['invalid_reset_token'] } },
  'POST /api/auth/password/set-new-password/': { id: 'setNewPassword', codes: { 400: ['invalid_reset_token'] } },
  'POST /api/onboarding/tenant-admin/': { id: 'acceptTenantAdminInvitation', codes: { 400: ['invalid_invitation'] } },
  // accounts
  'PUT /api/accounts/users/upload-image/': { id: 'uploadProfileImage', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'GET /api/accounts/users/:id/': { id: 'getUser' },
  'PATCH /api/accounts/users/:id/': { id: 'updateUser' },
  'PUT /api/accounts/users/:id/reset': { id: 'resetUserAccount' },
  // agents
  'GET /api/accounts/agents/template.csv': { id: 'getAgentsTemplate' },
  'GET /api/accounts/agents/': { id: 'listAgents' },
  'POST /api/accounts/agents/': { id: 'createAgent' },
  'POST /api/accounts/agents/bulk-upload/': { id: 'bulkUploadAgents', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'GET /api/accounts/agents/:id/': { id: 'getAgent' },
  'PUT /api/accounts/agents/:id/': { id: 'updateAgent' },
  'DELETE /api/accounts/agents/:id/': { id: 'deleteAgent' },
  'PUT /api/accounts/agents/:id/suspend': { id: 'toggleAgentSuspension' },
  // activity
  'GET /api/activity-logs/': { id: 'listActivityLogs' },
  // base
  'GET /api/base/all-countries/': { id: 'listCountries' },
  'GET /api/base/states/:id/': { id: 'listCountryStates' },
  'GET /api/base/countries/:id/cities/': { id: 'listCountryCities' },
  'GET /api/base/regions/': { id: 'listRegions' },
  'POST /api/base/regions/': { id: 'createRegion', codes: { 409: ['conflict'] } },
  'POST /api/base/export/:name/': { id: 'exportList' },
  // files
  'GET /api/files/:id': { id: 'getFile' },
  // operational areas
  'GET /api/operational-areas/': { id: 'listOperationalAreas' },
  'POST /api/operational-areas/': { id: 'createOperationalArea', codes: { 400: ['invalid_geometry'] } },
  'GET /api/operational-areas/:id/': { id: 'getOperationalArea' },
  'PUT /api/operational-areas/:id/': { id: 'updateOperationalArea', codes: { 400: ['invalid_geometry'] } },
  'DELETE /api/operational-areas/:id/': { id: 'deleteOperationalArea' },
  // farms
  'GET /api/farms/tiles/:z/:x/:y.mvt': { id: 'getFarmTile' },
  'GET /api/farms/export/eudr': { id: 'exportEudrGeolocation' },
  'GET /api/farms/:id/history/': { id: 'listFarmHistory' },
  'GET /api/farms/': { id: 'listFarms' },
  'GET /api/farms/overview': { id: 'getFarmsOverview' },
  'GET /api/farms/global': { id: 'getFarmsByCountry' },
  'GET /api/farms/regional': { id: 'getFarmsByState' },
  'GET /api/farms/categorized-by-state': { id: 'getFarmsCategorizedByState' },
  'GET /api/farms/:id/': { id: 'getFarm' },
  'GET /api/farms/:id/overlapping/': { id: 'listFarmOverlapGroup' },
  'GET /api/farms/:id/overlaps/': { id: 'listFarmOverlaps' },
  'POST /api/farms/': {
    id: 'captureFarm',
    body: captureFarmBody,
    idempotencyKey: true,
    codes: { 400: ['invalid_geometry'], 409: ['idempotency_key_reused', 'idempotency_key_in_progress'] },
  },
  'PUT /api/farms/:id/': { id: 'updateFarm', body: updateFarmBody, codes: { 400: ['invalid_geometry'] } },
  'DELETE /api/farms/:id/': { id: 'deleteFarm' },
  'POST /api/farms/:id/intersect': { id: 'retainFarm', codes: { 400: ['not_overlapping', 'farm_vanished'] } },
  // farmers
  'GET /api/farmers/template.csv': { id: 'getFarmersTemplate' },
  'GET /api/farmers/': { id: 'listFarmers' },
  'POST /api/farmers/bulk-upload/': { id: 'bulkUploadFarmers', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'GET /api/farmers/:id/': { id: 'getFarmer' },
  'DELETE /api/farmers/:id/': { id: 'deleteFarmer', codes: { 409: ['farmer_has_farms'] } },
  'POST /api/farmers/': { id: 'createFarmer', idempotencyKey: true, codes: { 409: ['conflict', 'idempotency_key_reused', 'idempotency_key_in_progress'] } },
  'PUT /api/farmers/:id/': { id: 'updateFarmer', codes: { 409: ['conflict'] } },
  'GET /api/farmers/:id/farms/': { id: 'listFarmerFarms' },
  'GET /api/farmers/:id/farms/:farmId/': { id: 'getFarmerFarm' },
  // tenant settings
  'GET /api/base/tenant-configurations': { id: 'getTenantConfiguration' },
  'PUT /api/base/tenant-configurations': { id: 'updateTenantConfiguration' },
  'GET /api/base/tenant-settings/': { id: 'getTenantSettings' },
  // analytics
  'GET /api/analytics/': { id: 'getAnalyticsCounts' },
  'GET /api/analytics/tenant-mapped-count/': { id: 'getTenantMappedCount' },
  'GET /api/analytics/agent-ranking/': { id: 'getAgentRanking' },
  'GET /api/analytics/agents-count/': { id: 'getAgentsCount' },
  'GET /api/analytics/farms-count/': { id: 'getFarmsCount' },
  'GET /api/analytics/operational-areas-count/': { id: 'getOperationalAreasCount' },
  'GET /api/analytics/mapped-farms-count/': { id: 'getMappedFarmersCount' },
  'GET /api/analytics/unmapped-farms-count/': { id: 'getUnmappedFarmersCount' },
  'GET /api/analytics/mapping-data/': { id: 'getMappingData' },
  'GET /api/analytics/mapping-ranking/': { id: 'getTenantMappingRanking' },
  'GET /api/analytics/tenants-dashboard-count/': { id: 'getTenantsDashboardCount' },
  'GET /api/analytics/tenants-count/': { id: 'getTenantsCount' },
  'GET /api/analytics/tenants-status-count/': { id: 'getTenantsStatusCount' },
  'GET /api/analytics/licenses-count/': { id: 'getLicensesCount' },
  'GET /api/analytics/tenant-progress/': { id: 'getTenantProgress' },
  // EUDR readiness reports (issue 29)
  'GET /api/eudr-reports/summary/': { id: 'getEudrReadinessSummary' },
  'GET /api/eudr-reports/plots/': { id: 'listEudrPlotsNeedingAction' },
  'GET /api/eudr-reports/plots/export/': { id: 'exportEudrPlotsNeedingAction' },
  'GET /api/eudr-reports/due-diligence/': { id: 'getDueDiligenceReport' },
  'GET /api/eudr-reports/tenant-readiness/': { id: 'getTenantEudrReadiness' },
  // tenants
  'GET /api/base/tenants/': { id: 'listTenants' },
  'POST /api/base/tenants/': { id: 'createTenant', codes: { 409: ['conflict'] } },
  'POST /api/base/tenants/delete/': { id: 'deleteTenants' },
  'GET /api/base/tenants/:id/': { id: 'getTenant' },
  'PUT /api/base/tenants/:id/': { id: 'updateTenant', codes: { 409: ['conflict'] } },
  'PUT /api/base/tenants/:id/suspend-deactivate/': { id: 'setTenantStatus' },
  // licenses
  'GET /api/base/licenses/': { id: 'listLicenses' },
  'PUT /api/base/licenses/:id/revoke/': { id: 'revokeLicense', codes: { 409: ['license_superseded'] } },
  'POST /api/base/licenses/:id/reissue/': { id: 'reissueLicense', codes: { 409: ['license_not_reissuable', 'license_superseded'] } },
  'POST /api/base/licenses/:id/rotate-key/': { id: 'rotateLicenseKey', codes: { 409: ['license_not_rotatable', 'license_superseded'] } },
  // custom analyses
  'GET /api/custom-analysis/template.csv': { id: 'getAnalysisTemplateCsv' },
  'GET /api/custom-analysis/template.geojson': { id: 'getAnalysisTemplateGeojson' },
  'POST /api/custom-analysis/': {
    id: 'createAnalysis',
    body: createAnalysisBody,
    codes: { 400: ['crs_unsupported', 'invalid_multipart', 'multipart_too_many_parts'], 429: ['analysis_queue_full'] },
  },
  'GET /api/custom-analysis/': { id: 'listAnalyses' },
  'GET /api/custom-analysis/:id/': { id: 'getAnalysis' },
  'DELETE /api/custom-analysis/:id/': { id: 'deleteAnalysis' },
  'GET /api/custom-analysis/:id/export/': { id: 'exportAnalysisCategory' },
  'GET /api/custom-analysis/:id/map/': { id: 'getAnalysisMap' },
  'GET /api/custom-analysis/:id/within/': { id: 'listAnalysisWithin' },
  'GET /api/custom-analysis/:id/outside/': { id: 'listAnalysisOutside' },
  'GET /api/custom-analysis/:id/overlapping/': { id: 'listAnalysisOverlapping' },
  'GET /api/custom-analysis/:id/unrecognized/': { id: 'listAnalysisUnrecognized' },
  'GET /api/custom-analysis/:id/errors/': { id: 'listAnalysisErrors' },
  // field app (issue 31)
  'GET /api/field/areas/': { id: 'listFieldAreas' },
  'GET /api/field/bundle/': { id: 'getFieldBundle', codes: { 404: ['not_found'] } },
  // reference layers and plot risk (issue 29)
  'GET /api/base/reference-layers/': { id: 'listProviderReferenceLayers' },
  'POST /api/base/reference-layers/': { id: 'uploadProviderReferenceLayer', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'GET /api/base/reference-layers/:id/': { id: 'getProviderReferenceLayer' },
  'GET /api/base/reference-layers/:id/progress/': { id: 'getProviderReferenceLayerProgress' },
  'POST /api/base/reference-layers/:id/replace/': { id: 'replaceProviderReferenceLayer', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'DELETE /api/base/reference-layers/:id/': { id: 'deleteProviderReferenceLayer' },
  'GET /api/reference-layers/': { id: 'listReferenceLayers' },
  'POST /api/reference-layers/': { id: 'uploadReferenceLayer', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'GET /api/reference-layers/:id/': { id: 'getReferenceLayer' },
  'GET /api/reference-layers/:id/progress/': { id: 'getReferenceLayerProgress' },
  'POST /api/reference-layers/:id/replace/': { id: 'replaceReferenceLayer', codes: { 400: ['invalid_multipart', 'multipart_too_many_parts'] } },
  'DELETE /api/reference-layers/:id/': { id: 'deleteReferenceLayer' },
  'GET /api/reference-layers/risk-settings/': { id: 'getPlotRiskSettings' },
  'PUT /api/reference-layers/risk-settings/': { id: 'updatePlotRiskSettings' },
  // webhooks (issue 32, part 3)
  'GET /api/webhooks/': { id: 'listWebhookEndpoints' },
  'POST /api/webhooks/': { id: 'createWebhookEndpoint', codes: { 409: ['webhook_limit_reached'] } },
  'GET /api/webhooks/:id/': { id: 'getWebhookEndpoint' },
  'PATCH /api/webhooks/:id/': { id: 'updateWebhookEndpoint' },
  'DELETE /api/webhooks/:id/': { id: 'deleteWebhookEndpoint' },
  'POST /api/webhooks/:id/rotate-secret/': { id: 'rotateWebhookSecret' },
  'POST /api/webhooks/:id/test/': { id: 'sendWebhookTest' },
  'GET /api/webhooks/:id/deliveries/': { id: 'listWebhookDeliveries' },
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver/': { id: 'redeliverWebhook', codes: { 409: ['webhook_delivery_in_progress'] } },
  'GET /api/farms/:id/screening/': { id: 'getFarmScreening' },
  'GET /api/farms/:id/screening/evidence/': { id: 'getFarmScreeningEvidence' },
};

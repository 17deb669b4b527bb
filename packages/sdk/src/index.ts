// @farmland/sdk: a typed client for the farmland-mapping platform API (README.md).
export { createFarmlandClient, type FarmlandClient, type FarmlandClientOptions } from './client.js';
export { FarmlandApiError, isFarmlandApiError, type ProblemBody } from './errors.js';
export {
  analysisResults,
  captureFarm,
  createFarmer,
  listItems,
  signIn,
  uploadAnalysis,
  waitForAnalysis,
  withIdempotentRetries,
  type AnalysisUpload,
  type CaptureFarmInput,
  type CreateFarmerInput,
  type Page,
  type ResultCategory,
  type RetryOptions,
  type SignInOptions,
  type UploadSource,
} from './helpers.js';
export { operationRoutes, type Operations } from './operations.js';
export type { components, operations as OperationTypes, paths } from './schema.js';

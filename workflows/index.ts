// The workflow bundle's entry point: every workflow type the worker registers.
export { reviewWorkflow } from './review.js';
export { resendEventWorkflow } from './deliveries.js';
export { retentionWorkflow } from './retention.js';
export { reviewHistoriesDeletion } from './history-deletion.js';

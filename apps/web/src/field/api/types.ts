// The field endpoints' shapes, from the shared contract (packages/contracts/src/field.ts, written by the server side
// of issue 31 and copied here unchanged).
import type { FieldArea as ContractArea, FieldBundle as ContractBundle } from '@farmland/contracts';

export type FieldArea = Pick<ContractArea, 'id' | 'name'> & Partial<ContractArea>;
export type FieldBundle = ContractBundle;
export type AreaGeometry = ContractBundle['farms'][number]['geometry'] | ContractBundle['area']['geometry'];

// zod with zod-to-openapi's `.openapi()` installed. zod 4 copies methods onto each schema when it is
// built, so the extension must exist before any resource schema is created: every module that defines a
// schema published in the OpenAPI document imports `z` from here.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };

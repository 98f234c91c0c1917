// The failure converter of every client and worker of the service and of the workflow bundle
// (DataConverter.failureConverterPath in connection.ts, bundleWorkflowCode's in worker/workflow-bundle.ts).
// A failure's message and stack trace are not payloads: left as they are, a refusal that names a file ("…
// jane-doe.pdf is empty") would sit in the history in plain text. With encodeCommonAttributes, Temporal's
// DefaultFailureConverter moves them into the failure's encodedAttributes, a payload, which the payload
// codec seals like any other (payload-codec.ts); the history says only "Encoded failure", and the clients
// and workers, which hold the key, read the message back intact. CommonJS, because Temporal loads this
// module by its path with require() (the client and the worker) or bundles it with webpack (the workflow
// bundle): as .cjs it loads alike under tsx and from the compiled .build/*.js, with no TypeScript loader.
'use strict';

const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });

// A namespace the worker may not add search attributes to (Temporal Cloud, a locked-down cluster): the
// worker's message names what is missing and the one command that adds it.
import test from 'ava';
import { SearchAttributeType } from '@temporalio/common';
import { missingSearchAttributesMessage } from '../../../src/temporal/search-attributes.js';

test('the message names each missing attribute with its type and gives the CLI and Cloud commands that add them', (t) => {
  const message = missingSearchAttributesMessage(
    'loans.a1b2c',
    [
      { name: 'ReviewStatus', type: SearchAttributeType.KEYWORD },
      { name: 'Sandbox', type: SearchAttributeType.BOOL },
    ],
    'PermissionDenied: Request unauthorized.',
  );
  t.regex(message, /namespace "loans\.a1b2c" lacks the search attributes ReviewStatus \(Keyword\), Sandbox \(Bool\)/);
  t.regex(message, /may not add them: PermissionDenied: Request unauthorized\./);
  t.regex(
    message,
    /temporal operator search-attribute create --namespace loans\.a1b2c --name ReviewStatus --type Keyword --name Sandbox --type Bool/,
  );
  t.regex(
    message,
    /tcld namespace search-attributes add --namespace loans\.a1b2c --search-attribute "ReviewStatus=Keyword" --search-attribute "Sandbox=Bool"/,
  );
});

-- The Report is made from a release's findings (their key is an issue's `id`). Releases published before
-- findings were stored (00003) have only their issues: each becomes a finding keyed by its code, as the
-- working documents of those releases named it, a repeated code numbered ~2, ~3 in report order (the
-- engine's rule for keys that meet). Evidence and regulation are filled in when findings are read.
update releases r
   set findings = (
     select coalesce(jsonb_agg(x.issue || jsonb_build_object('key', case when x.n = 1 then x.issue->>'code' else (x.issue->>'code') || '~' || x.n end)
                     order by x.position), '[]'::jsonb)
       from (select t.issue, t.position, row_number() over (partition by t.issue->>'code' order by t.position) as n
               from jsonb_array_elements(r.issues) with ordinality as t(issue, position)) x)
 where r.findings = '[]'::jsonb and r.issues <> '[]'::jsonb;

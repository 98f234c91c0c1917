-- What page 1 of a report says about the loan and the package (src/report/particulars.ts): worked out by
-- the analysis with its findings, kept with the draft and then the release. Releases from before have
-- none (null): their page 1, if rendered again, says the particulars were not recorded.
alter table release_drafts add column particulars jsonb;
alter table releases add column particulars jsonb;

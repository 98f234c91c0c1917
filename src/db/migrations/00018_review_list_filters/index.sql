-- GET /v1/reviews?status=…: an organization's reviews in one status, newest first, read from the index in
-- the listing's order (the other filters use reviews_listing and reviews_reference_id).
create index reviews_listing_by_status on reviews (organization_id, status, created_at desc, id desc);

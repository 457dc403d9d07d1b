"""The workers' Celery queues, by name (imported by the launcher and the deployments' checks without the
Celery app): `archive` for whatever asks PostgreSQL, `celery` (Celery's default) for the rest."""

DEFAULT_QUEUE = "celery"
ARCHIVE_QUEUE = "archive"
QUEUES = (DEFAULT_QUEUE, ARCHIVE_QUEUE)

"""The site's templates: the generic pages here, and one folder per game kind
(``splendor_duel/``) with its board's templates and the module that draws its pieces."""

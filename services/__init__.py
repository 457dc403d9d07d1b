"""The rules services. Importing this package first puts the compiled engines' finder in place
(`services.common.compiled`), so no engine module is imported before it."""

from services.common import compiled

compiled.install()

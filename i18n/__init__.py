"""Translatable texts: a `Message` is an English string that also carries its catalog message (the
template id and its arguments, the API's `Text`), and a `Catalog` renders Texts in a locale from
gettext `.po` files whose msgstrs are ICU MessageFormat patterns. Both the rules services and the
clients use it (docs/translations.md)."""

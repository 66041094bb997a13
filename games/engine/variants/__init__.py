"""The rule options of docs/rules.md §9, each a small class overriding the few hooks
of ``Position`` it changes; ``families.py`` composes the classes a game's rules ask
for. Grouped by what they change: the tableau, the reserve and hand, the
priorities, the strict rules, and Foster's two-pack rules (V14)."""

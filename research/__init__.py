"""Every registered title as a research environment: a PettingZoo AEC environment
(`research.pettingzoo_env`) and an OpenSpiel game (`research.openspiel_game`), on the engine in this
process or a rules service over gRPC (`research.backend`), with observations encoded from the View
message's descriptor (`research.observation`) and action masks over a fixed action space
(`research.actions`), both sized by a survey of the title (`research.survey`). See docs/research.md.
"""

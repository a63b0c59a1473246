import { phrases, type KeywordSet } from "./types.js";

export const es: KeywordSet = {
  lang: "es",
  name: "Spanish",
  match: "words",
  patterns: phrases(`
    cómo funciona | cómo funcionan | cómo se | cómo está implementad* | cómo fluye* | cómo llega*
    dónde se | dónde está | dónde están | en qué archivo | qué archivo | qué función | qué clase | qué método | qué módulo
    quién llama | qué llama | quién usa | qué usa | llamad* desde | llamad* por | se invoca* | invocad*
    flujo | flujo de datos | ciclo de vida | punto de entrada | qué pasa si | qué pasa cuando | qué sucede | qué ocurre
    impacto | afectad* | depende de | dependen de | arquitectura | estructura de | estructura del | definid* | se define
    implementad* | implementación de | relación entre | interactúa* | rastrea*
  `),
};

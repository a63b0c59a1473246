import { phrases, type KeywordSet } from "./types.js";

export const pt: KeywordSet = {
  lang: "pt",
  name: "Portuguese",
  match: "words",
  patterns: phrases(`
    como funciona | como funcionam | como é feit* | como se | como está implementad* | onde é | onde está | onde fica* | onde são
    em que arquivo | em qual arquivo | qual arquivo | qual função | qual classe | qual método | qual módulo
    quem chama | o que chama | quem usa | chamad* por | chamad* de | invocad*
    fluxo | fluxo de dados | ciclo de vida | ponto de entrada | o que acontece | impacto | afetad* | depende de | dependem de
    arquitetura | estrutura d* | definid* | implementad* | implementação d* | relação entre | interage
  `),
};

import { phrases, type KeywordSet } from "./types.js";

export const fr: KeywordSet = {
  lang: "fr",
  name: "French",
  match: "words",
  patterns: phrases(`
    comment fonctionne* | comment marche* | comment est | comment sont | comment se | où est | où sont | où se | d où vient | d où viennent
    quel fichier | quelle fonction | quelle classe | quelle méthode | quel module | dans quel fichier
    qui appelle* | qu est ce qui appelle | appelé* par | appelé* depuis | invoqué* | qui utilise* | utilisé* par
    flux | flux de données | cycle de vie | point d entrée | que se passe | qu est ce qui se passe | impact | affecté* | dépend de | dépendent de
    architecture | structure d* | défini | définie | définis | définies | implémenté* | implémentation d* | relation entre | interagi*
  `),
};

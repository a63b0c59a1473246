import { phrases, type KeywordSet } from "./types.js";

export const zhHans: KeywordSet = {
  lang: "zh-Hans",
  name: "Chinese (Simplified)",
  match: "substring",
  patterns: phrases(`
    怎么工作 | 怎么实现 | 怎么运作 | 怎么运行 | 怎样工作 | 如何工作 | 如何实现 | 如何运作 | 是怎么 | 是如何 | 原理 | 在哪里 | 在哪儿 | 在哪
    哪个文件 | 哪个函数 | 哪个类 | 哪个方法 | 哪个模块 | 谁调用 | 调用了 | 调用链 | 调用关系 | 调用图 | 被调用 | 调用方 | 调用者
    流程 | 数据流 | 控制流 | 生命周期 | 入口 | 会发生什么 | 发生了什么 | 影响 | 依赖于 | 依赖关系 | 架构 | 结构 | 定义在 | 在哪定义
    之间的关系
  `),
};

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AttributeModel</name>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="48"/>
        <source>graph “%1” (%2 nodes)</source>
        <translation>图“%1”（%2 个节点）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/attribute_model.cpp" line="53"/>
        <source>%n graph(s)</source>
        <translation>
            <numerusform>%n 个图</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Demos</name>
    <message>
        <location filename="../ui/demos/demos.cpp" line="10"/>
        <source>f(x1, x2) = ln(x1) + x1·x2 − sin(x2)</source>
        <translation>f(x1, x2) = ln(x1) + x1·x2 − sin(x2)</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="11"/>
        <source>Element-wise arithmetic on two inputs: the smallest graph with shared inputs and a fan-in.</source>
        <translation>两个输入上的逐元素运算：带共享输入和汇合的最小计算图。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="14"/>
        <source>Conv + ReLU</source>
        <translation>Conv + ReLU</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="15"/>
        <source>A convolution followed by ReLU: the classic fusion (a base kernel plus an epilogue).</source>
        <translation>卷积后接 ReLU：经典的融合（基础算子加尾处理）。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="19"/>
        <source>CNN block with BatchNorm and redundancies</source>
        <translation>含批归一化与冗余算子的 CNN 模块</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="20"/>
        <source>Conv, BatchNormalization and ReLU with Identity, Transpose and Reshape pairs that cancel out and a constant subexpression to fold.</source>
        <translation>Conv、BatchNormalization 与 ReLU，外加可相互抵消的 Identity、Transpose 和 Reshape 对，以及一个可折叠的常量子表达式。</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="25"/>
        <source>Transformer block</source>
        <translation>Transformer 块</translation>
    </message>
    <message>
        <location filename="../ui/demos/demos.cpp" line="26"/>
        <source>Self-attention and an MLP with a layer norm written out as ReduceMean, Sub, Pow, Sqrt and Div, and GELU in its erf form.</source>
        <translation>自注意力与 MLP；层归一化被展开为 ReduceMean、Sub、Pow、Sqrt 和 Div，GELU 采用 erf 形式。</translation>
    </message>
</context>
<context>
    <name>Document</name>
    <message>
        <location filename="../ui/document/document.cpp" line="63"/>
        <source>%1 is the file this model was opened from; choose another name or confirm overwriting it</source>
        <translation>%1 是打开此模型的原文件；请另选文件名，或确认覆盖该文件</translation>
    </message>
</context>
<context>
    <name>GraphRef</name>
    <message>
        <location filename="../ui/document/graph_ref.cpp" line="37"/>
        <source>main graph</source>
        <translation>主图</translation>
    </message>
</context>
<context>
    <name>Lessons</name>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="72"/>
        <source>an indented line continues no key</source>
        <translation>缩进的行没有可延续的键</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="82"/>
        <source>expected &quot;key: value&quot;, found &quot;%1&quot;</source>
        <translation>应为 “键: 值”，却是 “%1”</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="96"/>
        <source>unknown key &quot;%1&quot;</source>
        <translation>未知的键 “%1”</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="101"/>
        <source>&quot;%1&quot; has no language versions</source>
        <translation>“%1” 没有语言版本</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="105"/>
        <source>&quot;%1&quot; has no value</source>
        <translation>“%1” 没有值</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="112"/>
        <source>&quot;%1&quot; given twice (first on line %2)</source>
        <translation>“%1” 出现了两次（第一次在第 %2 行）</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="130"/>
        <source>order &quot;%1&quot; is not a whole number</source>
        <translation>order “%1” 不是整数</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="135"/>
        <source>the model file &quot;%1&quot; is not in the lesson&apos;s folder</source>
        <translation>模型文件 “%1” 不在课程的文件夹中</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="141"/>
        <source>no pass is called &quot;%1&quot; (passlab-cli passes lists them)</source>
        <translation>没有名为 “%1” 的遍（passlab-cli passes 列出所有遍）</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="153"/>
        <source>an option is written name=value, found &quot;%1&quot;</source>
        <translation>选项应写成 name=value，却是 “%1”</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="169"/>
        <source>no &quot;%1:&quot; line (every lesson needs one)</source>
        <translation>没有 “%1:” 行（每个课程都需要）</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="173"/>
        <source>no &quot;%1:&quot; line (every text is needed in English)</source>
        <translation>没有 “%1:” 行（每段文字都需要英文）</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="184"/>
        <source>the pass %1 has no option &quot;%2&quot;</source>
        <translation>遍 %1 没有选项 “%2”</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_format.cpp" line="219"/>
        <source>cannot read it: %1</source>
        <translation>无法读取：%1</translation>
    </message>
</context>
<context>
    <name>ModelFiles</name>
    <message>
        <location filename="../ui/document/model_files.cpp" line="22"/>
        <source>Shape inference: %1</source>
        <translation>形状推断：%1</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="25"/>
        <source>Shape inference: %1 more problems</source>
        <translation>形状推断：另有 %1 个问题</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="28"/>
        <source>Shape inference: %1 declared types disagree with the inferred ones (the declared types are kept), e.g. %2</source>
        <translation>形状推断：有 %1 个声明的类型与推断结果不一致（保留声明的类型），例如 %2</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="51"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="66"/>
        <source>%1: cannot read the file (%2)</source>
        <translation>%1：无法读取文件（%2）</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="80"/>
        <source>Repaired: %1</source>
        <translation>已修复：%1</translation>
    </message>
    <message>
        <location filename="../ui/document/model_files.cpp" line="83"/>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/document/model_files.cpp" line="113"/>
        <source>The model fails the verifier with %n error(s) it did not have when opened:</source>
        <translation>
            <numerusform>模型未通过验证器：有 %n 个打开时没有的错误：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/document/model_files.cpp" line="119"/>
        <source>(and %n more)</source>
        <translation>
            <numerusform>（另有 %n 个）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OpFamily</name>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="15"/>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="17"/>
        <source>Linear (MatMul, Gemm)</source>
        <translation>线性（MatMul、Gemm）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="19"/>
        <source>Activation</source>
        <translation>激活</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="21"/>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="23"/>
        <source>Pooling</source>
        <translation>池化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="25"/>
        <source>Elementwise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="27"/>
        <source>Reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="29"/>
        <source>Shape and layout</source>
        <translation>形状与布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="31"/>
        <source>Constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="33"/>
        <source>Control flow</source>
        <translation>控制流</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="35"/>
        <source>Recurrent</source>
        <translation>循环网络</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="37"/>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="39"/>
        <source>Attention and fused</source>
        <translation>注意力与融合算子</translation>
    </message>
    <message>
        <location filename="../ui/graphview/colors.cpp" line="41"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>PassCategoryText</name>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="8"/>
        <source>Structural</source>
        <translation>结构</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="10"/>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="12"/>
        <source>Read/write</source>
        <translation>读写</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="14"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="22"/>
        <source>Structural redundancy: nodes that compute nothing new or could compute less (constant folding, dead, meaningless and inverse nodes, common subexpressions, fusion, substitution, hoisting)</source>
        <translation>结构冗余：不计算新东西或可以少算的节点（常量折叠、死节点、无意义节点与互逆节点、公共子表达式、融合、替换、提升）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="27"/>
        <source>Algorithm redundancy: ops that share one computation run as one kernel (a mean blur and a Laplacian are the same sliding window)</source>
        <translation>算法冗余：共享同一计算的算子用同一个内核运行（均值模糊与拉普拉斯滤波是同一个滑动窗口）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="31"/>
        <source>Read/write redundancy: data moved more than needed (layouts reordered at every node, buffers not reused by lifetime)</source>
        <translation>读写冗余：数据搬运多于所需（每个节点都重排布局，缓冲区未按生命周期复用）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_category_text.cpp" line="35"/>
        <source>Precision redundancy: more bits than the result needs (float16, bfloat16, int8, sparsity, low rank)</source>
        <translation>精度冗余：位数多于结果所需（float16、bfloat16、int8、稀疏、低秩）</translation>
    </message>
</context>
<context>
    <name>PassStepCommand</name>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="18"/>
        <source>Step %1: %2 (rolled back)</source>
        <translation>第 %1 步：%2（已回滚）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="20"/>
        <source>Step %1: %2 (skipped)</source>
        <translation>第 %1 步：%2（已跳过）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="22"/>
        <source>Step %1: %2 (no change)</source>
        <translation>第 %1 步：%2（无变化）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="24"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
</context>
<context>
    <name>PrecisionTarget</name>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="39"/>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="41"/>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="43"/>
        <source>INT8 dynamic</source>
        <translation>INT8 动态</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="45"/>
        <source>INT8 static (calibrated)</source>
        <translation>INT8 静态（校准）</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="47"/>
        <source>Low rank</source>
        <translation>低秩</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="49"/>
        <source>Magnitude pruning</source>
        <translation>幅值剪枝</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="57"/>
        <source>MinMax</source>
        <translation>MinMax（最小最大值）</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="59"/>
        <source>Percentile</source>
        <translation>Percentile（百分位）</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_target.cpp" line="61"/>
        <source>Entropy</source>
        <translation>Entropy（熵）</translation>
    </message>
</context>
<context>
    <name>ProfileTables</name>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="49"/>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="51"/>
        <source>rewritten</source>
        <translation>已改写</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="53"/>
        <source>removed</source>
        <translation>已删除</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="55"/>
        <source>unmatched</source>
        <translation>未匹配</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="63"/>
        <source>one-thread run</source>
        <translation>单线程运行</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="65"/>
        <source>cost model</source>
        <translation>代价模型</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="67"/>
        <source>trial</source>
        <translation>试跑</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="69"/>
        <source>trying</source>
        <translation>试跑中</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="71"/>
        <source>PASSLAB_SMALL_STEP_MICROS</source>
        <translation>PASSLAB_SMALL_STEP_MICROS</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="80"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/profile/profile_tables.cpp" line="84"/>
        <source>Ran on %n thread(s), chosen by: %1</source>
        <translation>
            <numerusform>在 %n 个线程上运行，决定方式：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="87"/>
        <source>Step trials, fastest run: one thread %1 ms, split %2 ms</source>
        <translation>步骤试跑，最快一次：单线程 %1 ms，拆分 %2 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="95"/>
        <location filename="../ui/profile/profile_tables.cpp" line="139"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="95"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="95"/>
        <location filename="../ui/profile/profile_tables.cpp" line="171"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="95"/>
        <source>Median ms</source>
        <translation>中位数 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="96"/>
        <source>Min ms</source>
        <translation>最小 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="96"/>
        <source>P90 ms</source>
        <translation>P90 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="96"/>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="96"/>
        <location filename="../ui/profile/profile_tables.cpp" line="171"/>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="97"/>
        <location filename="../ui/profile/profile_tables.cpp" line="171"/>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="97"/>
        <source>GB/s</source>
        <translation>GB/s</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="97"/>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="102"/>
        <source>(noisy)</source>
        <translation>（噪声大）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="105"/>
        <source>(CPU fallback)</source>
        <translation>（回退到 CPU）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="119"/>
        <source>%1 (%2), kernel %3: %4 calls per run, %5 runs</source>
        <translation>%1（%2），内核 %3：每次运行调用 %4 次，共 %5 次运行</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="124"/>
        <source>Noisy: the spread is over 10%</source>
        <translation>噪声大：离散度超过 10%</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="129"/>
        <source>Ran on the CPU: the device has no kernel for it</source>
        <translation>在 CPU 上运行：设备没有它的内核</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="130"/>
        <source>Ran on the CPU: %1</source>
        <translation>在 CPU 上运行：%1</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="139"/>
        <source>Original nodes</source>
        <translation>原节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="139"/>
        <source>New nodes</source>
        <translation>新节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="139"/>
        <source>Before ms</source>
        <translation>优化前 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="140"/>
        <source>After ms</source>
        <translation>优化后 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="140"/>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="140"/>
        <source>Saved ms</source>
        <translation>节省 ms</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="140"/>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="145"/>
        <source>(slower)</source>
        <translation>（变慢）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="79"/>
        <location filename="../ui/profile/profile_tables.cpp" line="156"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="161"/>
        <source>Original ops: %1
New ops: %2</source>
        <translation>原算子：%1
新算子：%2</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="162"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="163"/>
        <source>A node of this group has a noisy time</source>
        <translation>此组中有节点的计时噪声大</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="171"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_tables.cpp" line="171"/>
        <source>Time ms</source>
        <translation>时间 ms</translation>
    </message>
</context>
<context>
    <name>RenameNodeCommand</name>
    <message>
        <location filename="../ui/document/commands.cpp" line="11"/>
        <source>Rename node to “%1”</source>
        <translation>将节点重命名为“%1”</translation>
    </message>
</context>
<context>
    <name>ResetPipelineCommand</name>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_commands.cpp" line="47"/>
        <source>Reset the pipeline (%n step(s))</source>
        <translation>
            <numerusform>重置流水线（%n 步）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunReport</name>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="49"/>
        <location filename="../ui/pipeline/run_report.cpp" line="51"/>
        <source>PassLab report: %1</source>
        <translation>PassLab 报告：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="53"/>
        <source>PassLab %1, %2</source>
        <translation>PassLab %1，%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="59"/>
        <source>No pass has run.</source>
        <translation>尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="67"/>
        <location filename="../ui/pipeline/run_report.cpp" line="151"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="67"/>
        <location filename="../ui/pipeline/run_report.cpp" line="152"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="69"/>
        <location filename="../ui/pipeline/run_report.cpp" line="89"/>
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="73"/>
        <source>initializers</source>
        <translation>初始值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="77"/>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="80"/>
        <source>%1 steps in %2 ms</source>
        <translation>%1 步，用时 %2 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="86"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="88"/>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="88"/>
        <source>pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="89"/>
        <source>changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="90"/>
        <source>time (ms)</source>
        <translation>用时（毫秒）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="90"/>
        <source>check</source>
        <translation>数值检查</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="97"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="99"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="125"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="151"/>
        <source>op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="156"/>
        <source>node made</source>
        <translation>生成的节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="157"/>
        <source>from the original nodes</source>
        <translation>来自原始节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="174"/>
        <location filename="../ui/pipeline/run_report.cpp" line="187"/>
        <location filename="../ui/pipeline/run_report.cpp" line="209"/>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="189"/>
        <source>Removed:</source>
        <translation>已删除：</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="195"/>
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="195"/>
        <source>pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/run_report.cpp" line="196"/>
        <source>why it did not match</source>
        <translation>未匹配的原因</translation>
    </message>
</context>
<context>
    <name>SetAttributeCommand</name>
    <message>
        <location filename="../ui/document/commands.cpp" line="32"/>
        <source>Set attribute %1</source>
        <translation>设置属性 %1</translation>
    </message>
    <message>
        <location filename="../ui/document/commands.cpp" line="33"/>
        <source>Remove attribute %1</source>
        <translation>删除属性 %1</translation>
    </message>
</context>
<context>
    <name>core</name>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="13"/>
        <source> (it takes none)</source>
        <translation>（它不接受任何选项）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="14"/>
        <source> (options: %1)</source>
        <translation>（可用选项：%1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="15"/>
        <source>&quot;...&quot; is not a prefix of every term</source>
        <translation>&quot;...&quot; 不是每一项的前缀</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="16"/>
        <source>%1 (%2 of them were graph inputs too, now frozen as constants)</source>
        <translation>%1（其中 %2 个原先也是图输入，现已固定为常量）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="17"/>
        <source>%1 (SNR %2 dB in, %3 dB out)</source>
        <translation>%1（输入 SNR %2 dB，输出 %3 dB）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="18"/>
        <source>%1 (a constant 0)</source>
        <translation>%1（常量 0）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="19"/>
        <source>%1 (the shuffled tensor is needed whole)</source>
        <translation>%1（需要完整的重排后张量）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="22"/>
        <source>%1 -&gt; %2 is not exact</source>
        <translation>%1 -&gt; %2 不精确</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="23"/>
        <source>%1 -&gt; %2 loses values</source>
        <translation>%1 -&gt; %2 会丢失数值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="24"/>
        <source>%1 B is not a 2-D float constant</source>
        <translation>%1 的 B 不是二维浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="25"/>
        <source>%1 B is not constant</source>
        <translation>%1 的 B 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="26"/>
        <source>%1 FLOPs, %2 bytes</source>
        <translation>%1 次浮点运算，%2 字节</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="27"/>
        <source>%1 MatMul(s) of this input with constant weights (at least %2 are fused)</source>
        <translation>此输入与常量权重相乘的 MatMul 有 %1 个（至少 %2 个才融合）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="31"/>
        <source>%1 adds them after a Concat or shuffle moved them: not followed</source>
        <translation>%1 在 Concat 或通道混洗移动它们之后才相加：不再跟踪</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="35"/>
        <source>%1 already keeps the reduced dims</source>
        <translation>%1 已保留被归约的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="36"/>
        <source>%1 axes are given as a non-constant input</source>
        <translation>%1 的 axes 以非常量输入给出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="37"/>
        <source>%1 axes are not constant</source>
        <translation>%1 的 axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="39"/>
        <source>%1 bias is not a float constant with one value per output channel</source>
        <translation>%1 的偏置不是每个输出通道一个值的浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="40"/>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="48"/>
        <source>%1 dims are neither copied from the data at the same position nor static numbers (%2; %3)</source>
        <translation>%1 个维度既不是从数据的同一位置复制的，也不是静态数值（%2；%3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="49"/>
        <source>%1 does not scale by a constant holding one value</source>
        <translation>%1 不是乘以（或除以）只含一个值的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="50"/>
        <source>%1 draws random numbers</source>
        <translation>%1 会生成随机数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="54"/>
        <source>%1 has %2 output channels for %3 channels</source>
        <translation>%1 有 %2 个输出通道，而输入有 %3 个通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="57"/>
        <source>%1 has a non-constant side operand</source>
        <translation>%1 有一个非常量的旁路操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="58"/>
        <source>%1 has an input that is not float32</source>
        <translation>%1 有一个不是 float32 的输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="59"/>
        <source>%1 has auto_pad %2</source>
        <translation>%1 设置了 auto_pad %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="60"/>
        <source>%1 has auto_pad = %2 (its pads follow from the input size; explicit pads are needed)</source>
        <translation>%1 的 auto_pad = %2（其填充取决于输入尺寸；需要显式的 pads）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="61"/>
        <source>%1 has ceil_mode = 1 (a window starting in the padding would be dropped)</source>
        <translation>%1 设置了 ceil_mode = 1（从填充区开始的窗口会被丢弃）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="62"/>
        <source>%1 has dilations other than 1</source>
        <translation>%1 的膨胀（dilations）不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="64"/>
        <source>%1 has group %2 with %3 input channels per group and %4 outputs: not one input channel per output channel (a per-channel window cannot hold it)</source>
        <translation>%1 的 group 为 %2，每组 %3 个输入通道，共 %4 个输出：并非每个输出通道只读一个输入通道（逐通道窗口无法表示）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="66"/>
        <source>%1 has no axes attribute</source>
        <translation>%1 没有 axes 属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="69"/>
        <source>%1 has no input</source>
        <translation>%1 没有输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="72"/>
        <source>%1 has other outputs</source>
        <translation>%1 还有其他输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="74"/>
        <source>%1 has pads of its own and reads a Pad or a combination</source>
        <translation>%1 自带填充，且读取的是 Pad 或组合结果</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="76"/>
        <source>%1 has strides other than 1</source>
        <translation>%1 的步长（strides）不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="77"/>
        <source>%1 has subgraphs (If/Loop/Scan bodies are neither compared nor evaluated here)</source>
        <translation>%1 含有子图（此处既不比较也不求值 If/Loop/Scan 的子图）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="82"/>
        <source>%1 is in the op block list</source>
        <translation>%1 在算子屏蔽列表中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="83"/>
        <source>%1 is not a 2-D convolution</source>
        <translation>%1 不是二维卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="84"/>
        <source>%1 is not a DequantizeLinear output</source>
        <translation>%1 不是 DequantizeLinear 的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="85"/>
        <source>%1 is not a default-domain op</source>
        <translation>%1 不是默认域的算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="87"/>
        <source>%1 is not an elementwise op FusedElementwise runs</source>
        <translation>%1 不是 FusedElementwise 能运行的逐元素算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="88"/>
        <source>%1 is not an object</source>
        <translation>%1 不是对象</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="89"/>
        <source>%1 is not an op of opset %2</source>
        <translation>%1 不是算子集 %2 中的算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="90"/>
        <source>%1 is not by a per-channel constant</source>
        <translation>%1 的另一操作数不是逐通道常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="94"/>
        <source>%1 is not quantized to 8 bits</source>
        <translation>%1 未量化为 8 位</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="95"/>
        <source>%1 is over the accuracy budget: %2</source>
        <translation>%1 超出了精度预算：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="96"/>
        <source>%1 is written for opsets up to %2 (model has %3)</source>
        <translation>%1 是为不超过 %2 的 opset 编写的（模型为 %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="100"/>
        <source>%1 left a graph the verifier rejects: %2</source>
        <translation>%1 留下了验证器拒绝的图：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="101"/>
        <source>%1 needs opset &gt;= %2 (model has %3)</source>
        <translation>%1 需要 opset &gt;= %2（模型为 %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="102"/>
        <source>%1 needs the whole shuffled tensor</source>
        <translation>%1 需要完整的重排后张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="104"/>
        <source>%1 nodes in %2, %3 kept in float32 (the explain log says why), %4 weights stored in %2, %5 Casts added</source>
        <translation>%1 个节点改用 %2，%3 个保留 float32（原因见解释日志），%4 个权重以 %2 存储，新增 %5 个 Cast</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="108"/>
        <source>%1 of %2</source>
        <translation>%2 的 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="112"/>
        <source>%1 of %2, which has %3 rows</source>
        <translation>%2 的 %1，它有 %3 行</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="113"/>
        <source>%1 of the result is 0</source>
        <translation>结果的%1为 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="114"/>
        <source>%1 of the shape is %2</source>
        <translation>形状的%1为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="116"/>
        <source>%1 ops quantized to int8 (weights %2), %3 activations calibrated on %4 input sets (%5)</source>
        <translation>%1 个算子量化为 int8（权重%2），%3 个激活值在 %4 组输入上校准（%5）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="117"/>
        <source>%1 output %2</source>
        <translation>%1 的输出 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="118"/>
        <source>%1 output %2 &apos;%3&apos; is used</source>
        <translation>%1 的输出 %2 &apos;%3&apos; 被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="120"/>
        <source>%1 pads are not 4 values</source>
        <translation>%1 的 pads 不是 4 个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="122"/>
        <source>%1 pads have the wrong length</source>
        <translation>%1 的 pads 长度不对</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="127"/>
        <source>%1 reads a chain of rank %2 (not N, C and spatial dims)</source>
        <translation>%1 读取的链秩为 %2（不是 N、C 加空间维）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="128"/>
        <source>%1 reads the chain as a scalar parameter</source>
        <translation>%1 将该链当作标量参数读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="129"/>
        <source>%1 reads the chain as a scale or zero point</source>
        <translation>%1 将该链作为缩放系数或零点读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="140"/>
        <source>%1 reduces nothing (empty axes, noop)</source>
        <translation>%1 什么也不归约（axes 为空，noop）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="142"/>
        <source>%1 result is not a 2-D tensor of known shape (a batched MatMul&apos;s channel axis is a row axis, which the weights cannot absorb)</source>
        <translation>%1 的结果不是形状已知的二维张量（批量 MatMul 的通道轴是行轴，权重无法吸收）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="143"/>
        <source>%1 rounds differently in the narrower type</source>
        <translation>%1 在较窄的类型中舍入结果不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="147"/>
        <source>%1 takes 8-bit tensors from opset %2 (model has %3)</source>
        <translation>%1 从算子集 %2 起接受 8 位张量（模型为 %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="148"/>
        <source>%1 threw an exception that is not a std::exception</source>
        <translation>%1 抛出了一个不是 std::exception 的异常</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="149"/>
        <source>%1 threw: %2</source>
        <translation>%1 抛出异常：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="151"/>
        <source>%1 uses the legacy broadcast attribute</source>
        <translation>%1 使用了旧式广播属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="152"/>
        <source>%1 values for %2 (planned as %3 elements)</source>
        <translation>%1 个值给 %2（按计划应为 %3 个元素）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="153"/>
        <source>%1 weights are not a float constant</source>
        <translation>%1 的权重不是 float 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="154"/>
        <source>%1 weights factorized: %2 -&gt; %3 parameters</source>
        <translation>分解了 %1 个权重：参数 %2 -&gt; %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="155"/>
        <source>%1 with %2 out for the ops after it</source>
        <translation>%1，且需为其后的算子输出 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="156"/>
        <source>%1 with channels_last = %2 reads the chain transposed by %3, not by %4 (the move that flipping channels_last undoes)</source>
        <translation>channels_last = %2 的 %1 读取按 %3 转置的链，而不是按 %4（翻转 channels_last 所能抵消的移动）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="161"/>
        <source>%1&apos;s result is not float32</source>
        <translation>%1 的结果不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="164"/>
        <source>%1(c, BatchNormalization(x)) is not a per-channel %2 of the BatchNormalization</source>
        <translation>%1(c, BatchNormalization(x)) 不是该 BatchNormalization 的逐通道 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="165"/>
        <source>%1(c, Conv(x)) is not a per-channel %2 of the Conv</source>
        <translation>%1(c, Conv(x)) 不是对 Conv 的逐通道 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="169"/>
        <source>%1, auto_pad %2</source>
        <translation>%1，auto_pad %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="170"/>
        <source>%1, dilation %2</source>
        <translation>%1，膨胀 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="171"/>
        <source>%1, less the %2+%3 of %4,</source>
        <translation>%1，减去 %4 的 %2+%3，</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="172"/>
        <source>%1, pads %2+%3</source>
        <translation>%1，填充 %2+%3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="173"/>
        <source>%1, rounded up to the path&apos;s total stride %2</source>
        <translation>%1，向上取整到该路径的总步长 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="174"/>
        <source>%1, stride %2</source>
        <translation>%1，步长 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="175"/>
        <source>%1, top-1 %2 (%3 rows)</source>
        <translation>%1，top-1 %2（%3 行）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="176"/>
        <source>%1, top-1 %2, top-%3 %4 (%5 rows)</source>
        <translation>%1，top-1 %2，top-%3 %4（%5 行）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="177"/>
        <source>%1: &apos;%2&apos; is %3 in the calibration run, not float32</source>
        <translation>%1：校准运行中 &apos;%2&apos; 为 %3，不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="178"/>
        <source>%1: &apos;%2&apos; is not one of %3</source>
        <translation>%1：&apos;%2&apos; 不是 %3 之一</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="179"/>
        <source>%1: QuantizeLinear needs opset 10 or later; the model imports opset %2</source>
        <translation>%1：QuantizeLinear 需要算子集 10 或更高；模型导入的是算子集 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="180"/>
        <source>%1: activation_type &apos;%2&apos; is not uint8 or int8</source>
        <translation>%1：activation_type &apos;%2&apos; 不是 uint8 或 int8</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="181"/>
        <source>%1: an option is not an object</source>
        <translation>%1：某个选项不是对象</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="182"/>
        <source>%1: axis %2 is not an axis of the Transpose&apos;s result</source>
        <translation>%1：轴 %2 不是该 Transpose 结果的轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="183"/>
        <source>%1: axis %2 is not an axis of the Transpose&apos;s result (contiguous parts of shuffled channels interleave the groups; a group is every group-th channel, a Slice with a step)</source>
        <translation>%1：轴 %2 不是该 Transpose 结果的轴（重排后通道的连续部分会交错各组；一组是每隔组数取一个通道，即带步长的 Slice）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="184"/>
        <source>%1: calibration saw no finite value of &apos;%2&apos;</source>
        <translation>%1：校准中 &apos;%2&apos; 没有有限值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="186"/>
        <source>%1: cancelled</source>
        <translation>%1：已取消</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="187"/>
        <source>%1: does not take one index, or every group-th element, of a shuffled axis</source>
        <translation>%1：没有取重排轴的单个索引，也没有每隔组数取一个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="188"/>
        <source>%1: given</source>
        <translation>%1：已给出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="189"/>
        <source>%1: its parts are not known to be single indices</source>
        <translation>%1：无法确定其各部分都是单个索引</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="190"/>
        <source>%1: its parts are not single indices of the shuffled axis (a contiguous part of a shuffle is itself interleaved)</source>
        <translation>%1：其各部分不是重排轴的单个索引（重排结果的连续部分本身是交错的）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="191"/>
        <source>%1: method &apos;%2&apos; is not minmax, percentile or entropy</source>
        <translation>%1：method &apos;%2&apos; 不是 minmax、percentile 或 entropy</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="192"/>
        <source>%1: no calibration data (give input sets to calibrate with)</source>
        <translation>%1：没有校准数据（请提供用于校准的输入集）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="193"/>
        <source>%1: no input_%2.pb or .npy for input &apos;%3&apos;</source>
        <translation>%1：输入 &apos;%3&apos; 没有 input_%2.pb 或 .npy</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="195"/>
        <source>%1: op_types names &apos;%2&apos;; it quantizes Conv, MatMul, Gemm, Add and Mul</source>
        <translation>%1：op_types 含 &apos;%2&apos;；本遍只量化 Conv、MatMul、Gemm、Add 和 Mul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="277"/>
        <source>A, B and the output are not quantized to one 8-bit type</source>
        <translation>A、B 和输出未量化为同一种 8 位类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="467"/>
        <source>a scale of A or B is not one value</source>
        <translation>A 或 B 的缩放因子不是单个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="494"/>
        <source>an input is not an activation quantized for a Conv, MatMul, Gemm, Add or Mul</source>
        <translation>有一个输入不是为 Conv、MatMul、Gemm、Add 或 Mul 量化的激活值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1108"/>
        <source>the inputs are not two float32 tensors</source>
        <translation>输入不是两个 float32 张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1145"/>
        <source>the op uses the legacy broadcast attribute</source>
        <translation>该算子使用了旧版的 broadcast 属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="199"/>
        <source>%1: percentile %2 is not in (50, 100]</source>
        <translation>%1：percentile %2 不在 (50, 100] 内</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="20"/>
        <source>%1 (the step: %2)</source>
        <translation>%1（该步骤：%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="28"/>
        <source>%1 MatMul/Gemm and %2 Conv weights in int8 (%3), activations quantized per run</source>
        <translation>%1 个 MatMul/Gemm 与 %2 个 Conv 的权重为 int8（%3），激活在每次运行时量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="29"/>
        <source>%1 NaN and %2 infinite of its %3 values</source>
        <translation>其 %3 个值中有 %1 个 NaN 和 %2 个无穷大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="30"/>
        <source>%1 NaN of its %2 values</source>
        <translation>其 %2 个值中有 %1 个 NaN</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="43"/>
        <source>%1 could not be evaluated: %2</source>
        <translation>无法求值 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="45"/>
        <source>%1 dead channels stay: %2 computes its input with channels laid out otherwise</source>
        <translation>%1 个死通道保留：%2 计算其输入时通道的排布方式不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="46"/>
        <source>%1 dead channels stay: %2 is excluded from this pass</source>
        <translation>%1 个死通道保留：%2 被排除在本 pass 之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="47"/>
        <source>%1 dead channels stay: a depthwise Conv loses an output channel only with its input channel, and its input &apos;%2&apos; does not trace back to layers whose channels could go</source>
        <translation>%1 个死通道保留：深度卷积只有连同其输入通道才能去掉一个输出通道，而其输入 &apos;%2&apos; 无法追溯到可去掉通道的层</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="52"/>
        <source>%1 flattens at another axis than 1</source>
        <translation>%1 在轴 1 以外的轴上展平</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="55"/>
        <source>%1 has %2 output channels, fewer than the depthwise Conv it feeds</source>
        <translation>%1 有 %2 个输出通道，少于其所馈入的深度卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="68"/>
        <source>%1 has no constant 8-bit 1x1 weight</source>
        <translation>%1 没有常量的 8 位 1x1 权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="70"/>
        <source>%1 has no int8 weight</source>
        <translation>%1 没有 int8 权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="71"/>
        <source>%1 has no output zero point</source>
        <translation>%1 没有输出零点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="73"/>
        <source>%1 has pads</source>
        <translation>%1 有填充</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="75"/>
        <source>%1 has scales, zero points or a bias that are not constants of its channels</source>
        <translation>%1 的缩放、零点或偏置不是按其通道的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="78"/>
        <source>%1 infinite of its %2 values</source>
        <translation>其 %2 个值中有 %1 个无穷大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="79"/>
        <source>%1 is dequantized by blocks</source>
        <translation>%1 按块反量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="81"/>
        <source>%1 is grouped</source>
        <translation>%1 是分组卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="86"/>
        <source>%1 is not an elementwise op</source>
        <translation>%1 不是逐元素算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="91"/>
        <source>%1 is not dequantized from 8 bits</source>
        <translation>%1 不是由 8 位数值反量化而来</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="92"/>
        <source>%1 is not in op_types</source>
        <translation>%1 不在 op_types 中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="93"/>
        <source>%1 is not on float32</source>
        <translation>%1 不在 float32 上</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="97"/>
        <source>%1 joins them along another axis</source>
        <translation>%1 沿另一个轴拼接它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="103"/>
        <source>%1 nodes channels-last, %2 Transposes in, %3 out</source>
        <translation>%1 个节点改为通道在后，%2 个输入 Transpose，%3 个输出 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="106"/>
        <source>%1 nodes of the ops it rewrites are inside subgraphs and stay as they are (%2)</source>
        <translation>它所改写的算子中有 %1 个节点位于子图内，保持不变（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="110"/>
        <source>%1 of %2 elements moved by a quantization step of %3 (%4, at most %5)</source>
        <translation>%2 个元素中有 %1 个移动了一个量化步长 %3（%4，至多 %5）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="115"/>
        <source>%1 ops inside subgraphs that no calibration run entered stay float32 (an If branch not taken, a Loop or Scan of no iteration)</source>
        <translation>子图中 %1 个算子没有被任何校准运行进入，保持 float32（未走的 If 分支，或没有迭代的 Loop、Scan）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="131"/>
        <source>%1 reads the result of %2; only a Gemm or MatMul reading it as A is followed there</source>
        <translation>%1 读取 %2 的结果；那里只跟踪把它作为 A 读取的 Gemm 或 MatMul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="134"/>
        <source>%1 reads them twice</source>
        <translation>%1 读取了它们两次</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="137"/>
        <source>%1 reads them; the positions per channel are not known</source>
        <translation>%1 读取它们；每个通道的位置数未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="138"/>
        <source>%1 reads them; the shape of its input is not known</source>
        <translation>%1 读取它们；其输入的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="139"/>
        <source>%1 reads them; their channels are not axis 1</source>
        <translation>%1 读取它们；它们的通道不在轴 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="141"/>
        <source>%1 reshapes them to another shape than [N, channels x positions]</source>
        <translation>%1 把它们重塑为 [N, 通道数 x 位置数] 以外的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="144"/>
        <source>%1 runs a vectorized row fused or not: above %2 elements the fused group measured no steady gain (bench_fused_kernels: 0.72-1.19x, medians from 16K elements); &apos;%3&apos; has %4 elements</source>
        <translation>%1 无论融合与否都运行向量化的行内核：超过 %2 个元素时，融合组没有测得稳定的收益（bench_fused_kernels：0.72-1.19x，16K 元素起的中位数）；&apos;%3&apos; 有 %4 个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="145"/>
        <source>%1 runs a vectorized row fused or not: above %2 elements the fused group measured no steady gain (bench_fused_kernels: 0.87-1.15x); &apos;%3&apos; has %4 elements</source>
        <translation>%1 无论是否融合都按向量化的行运行：超过 %2 个元素时，融合组没有测得稳定的收益（bench_fused_kernels：0.87-1.15x）；&apos;%3&apos; 有 %4 个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="146"/>
        <source>%1 runs a vectorized row fused or not: above %2 elements the fused group measured slower (bench_fused_kernels: 0.85-0.94x from 64K elements); &apos;%3&apos; has %4 elements</source>
        <translation>%1 无论是否融合都以向量化行运行：超过 %2 个元素时融合组测得更慢（bench_fused_kernels：64K 个元素起为 0.85-0.94 倍）；&apos;%3&apos; 有 %4 个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="160"/>
        <source>%1&apos;s bias is not a constant int32</source>
        <translation>%1 的偏置不是常量 int32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="162"/>
        <source>%1&apos;s weight zero point is not 0</source>
        <translation>%1 的权重零点不是 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="163"/>
        <source>%1&apos;s weight zero point is not constant</source>
        <translation>%1 的权重零点不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="166"/>
        <source>%1, %2 values NaN or infinite</source>
        <translation>%1，%2 个值为 NaN 或无穷大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="167"/>
        <source>%1, %2 values NaN or infinite in both</source>
        <translation>%1，两者中都有 %2 个值为 NaN 或无穷大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="168"/>
        <source>%1, %2 values differ where the original&apos;s are NaN or infinite</source>
        <translation>%1，原模型为 NaN 或无穷大之处有 %2 个值不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="185"/>
        <source>%1: calibration saw no finite value of &apos;%2&apos;: the calibration data holds NaN or infinite values (%3)</source>
        <translation>%1：校准没有看到 &apos;%2&apos; 的任何有限值：校准数据含有 NaN 或无穷大值（%3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="194"/>
        <source>%1: not factorized at rank %2 when cut out</source>
        <translation>%1：单独取出时未按秩 %2 分解</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="196"/>
        <source>%1: op_types names &apos;%2&apos;; it quantizes MatMul, Gemm and Conv</source>
        <translation>%1：op_types 指定了“%2”；它只量化 MatMul、Gemm 和 Conv</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="197"/>
        <source>%1: option &apos;reduce_range&apos; takes auto, true or false, not &apos;%2&apos;</source>
        <translation>%1：选项 &apos;reduce_range&apos; 可取 auto、true 或 false，而不是 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="200"/>
        <source>%1: slices more than one axis</source>
        <translation>%1：切片了不止一个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="202"/>
        <source>%1: target opset %2 is newer than the newest known (%3)</source>
        <translation>%1：目标算子集 %2 比已知最新版本（%3）更新</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="203"/>
        <source>%1: the field &apos;%2&apos; is missing</source>
        <translation>%1：缺少字段 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="204"/>
        <source>%1: the field &apos;%2&apos; is not %3</source>
        <translation>%1：字段 &apos;%2&apos; 不是 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="205"/>
        <source>%1: the index is out of range</source>
        <translation>%1：索引越界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="206"/>
        <source>%1: the indices are not one constant</source>
        <translation>%1：索引不是单个常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="207"/>
        <source>%1: the model has %2 inputs, but %3 exists</source>
        <translation>%1：模型有 %2 个输入，但存在 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="208"/>
        <source>%1: the prompt length + 4</source>
        <translation>%1：提示长度 + 4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="209"/>
        <source>%1: the raise to opset %2 would rewrite %3, which this step&apos;s node filter keeps the pass away from</source>
        <translation>%1：升级到 opset %2 会改写 %3，而该步骤的节点过滤器不允许此 pass 改动它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="210"/>
        <source>%1: the result&apos;s shape is not static</source>
        <translation>%1：结果的形状不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="212"/>
        <source>%1; %2 BatchNormalizations folded into the Convs before them first</source>
        <translation>%1；先将 %2 个 BatchNormalization 折叠进其前面的 Conv</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="213"/>
        <source>%1; %2 MatMul, Gemm and Conv nodes inside subgraphs left float32 (subgraphs=false, or their node is excluded)</source>
        <translation>%1；子图内有 %2 个 MatMul、Gemm 和 Conv 节点保持 float32（subgraphs=false，或该节点被排除）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="215"/>
        <source>%1; %2 nodes inside subgraphs left float32 (subgraphs=false, or their node is blocked or excluded)</source>
        <translation>%1；子图内有 %2 个节点保持 float32（subgraphs=false，或该节点被阻止或排除）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="216"/>
        <source>%1; %2 nodes of the ops it rewrites are inside subgraphs and stay as they are (%3)</source>
        <translation>%1；它所改写的算子中有 %2 个节点位于子图内，保持不变（%3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="217"/>
        <source>%1; %2 of the converted nodes are inside subgraphs</source>
        <translation>%1；转换的节点中有 %2 个位于子图内</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="218"/>
        <source>%1; %2 of them inside subgraphs</source>
        <translation>%1；其中 %2 个位于子图内</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="219"/>
        <source>%1; %2 ops inside subgraphs that no calibration run entered stay float32 (an If branch not taken, a Loop or Scan of no iteration)</source>
        <translation>%1；子图中 %2 个算子没有被任何校准运行进入，保持 float32（未走的 If 分支，或没有迭代的 Loop、Scan）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="220"/>
        <source>%1; %2 weight values clamped to the float16 range (+-65504), %3 flushed to zero</source>
        <translation>%1；%2 个权重值被截断到 float16 范围（±65504），%3 个下溢为零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="222"/>
        <source>%1; and %2 more</source>
        <translation>%1；另有 %2 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="223"/>
        <source>%1; first diverging tensor &apos;%2&apos;</source>
        <translation>%1；第一个出现差异的张量为 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="224"/>
        <source>&apos;%1&apos; (%2) does not have the result&apos;s shape (%3): computing it per output element would repeat it</source>
        <translation>&apos;%1&apos;（%2）与结果的形状（%3）不同：逐输出元素计算会重复计算它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="225"/>
        <source>&apos;%1&apos; (%2) does not have the scores&apos; shape (%3)</source>
        <translation>&apos;%1&apos;（%2）与得分的形状（%3）不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="226"/>
        <source>&apos;%1&apos; (%2) does not have the shape of &apos;%3&apos; (%4)</source>
        <translation>&apos;%1&apos;（%2）与 &apos;%3&apos;（%4）的形状不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="227"/>
        <source>&apos;%1&apos; against its original nodes</source>
        <translation>&apos;%1&apos; 与其原始节点的比较</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="228"/>
        <source>&apos;%1&apos; alone</source>
        <translation>单独的 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="229"/>
        <source>&apos;%1&apos; and &apos;%2&apos; are both model outputs</source>
        <translation>&apos;%1&apos; 和 &apos;%2&apos; 都是模型输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="230"/>
        <source>&apos;%1&apos; and &apos;%2&apos; are both outputs of a graph</source>
        <translation>&apos;%1&apos; 和 &apos;%2&apos; 都是同一个图的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="231"/>
        <source>&apos;%1&apos; comes from %2, not fusable</source>
        <translation>&apos;%1&apos; 来自 %2，无法融合</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="232"/>
        <source>&apos;%1&apos; comes from a %2, not a head Reshape/Transpose</source>
        <translation>&apos;%1&apos; 来自 %2，而不是拆分注意力头的 Reshape/Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="233"/>
        <source>&apos;%1&apos; equals &apos;%2&apos; but is a graph output</source>
        <translation>&apos;%1&apos; 与 &apos;%2&apos; 相等，但它是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="234"/>
        <source>&apos;%1&apos; feeds a GELU subgraph and also other nodes</source>
        <translation>&apos;%1&apos; 既输入 GELU 子图，也输入其他节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="235"/>
        <source>&apos;%1&apos; has %2 consumers</source>
        <translation>&apos;%1&apos; 有 %2 个使用者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="236"/>
        <source>&apos;%1&apos; has %2 consumers that are not a GELU subgraph</source>
        <translation>&apos;%1&apos; 有 %2 个不属于 GELU 子图的使用者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="237"/>
        <source>&apos;%1&apos; has %2 consumers: it is an input of the groups that read it</source>
        <translation>&apos;%1&apos; 有 %2 个使用者：它作为输入交给读取它的各个组</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="238"/>
        <source>&apos;%1&apos; has a consumer outside the pattern (%2)</source>
        <translation>&apos;%1&apos; 在模式之外还有使用者（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="239"/>
        <source>&apos;%1&apos; has another consumer (%2)</source>
        <translation>&apos;%1&apos; 还有另一个使用者（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="240"/>
        <source>&apos;%1&apos; has no consumer</source>
        <translation>&apos;%1&apos; 没有使用者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="241"/>
        <source>&apos;%1&apos; has no counterpart in the rewritten model</source>
        <translation>&apos;%1&apos; 在改写后的模型中没有对应项</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="242"/>
        <source>&apos;%1&apos; has rank %2, above the result&apos;s %3 (broadcasting would change the shape)</source>
        <translation>&apos;%1&apos; 的秩为 %2，高于结果的秩 %3（广播会改变形状）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="243"/>
        <source>&apos;%1&apos; is a graph output</source>
        <translation>&apos;%1&apos; 是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="244"/>
        <source>&apos;%1&apos; is a graph output and cannot be replaced by nothing</source>
        <translation>&apos;%1&apos; 是图的输出，不能替换为空</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="245"/>
        <source>&apos;%1&apos; is a model output and &apos;%2&apos; is a model input or constant, so the output would be renamed</source>
        <translation>&apos;%1&apos; 是模型输出，而 &apos;%2&apos; 是模型输入或常量，输出会因此被改名</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="246"/>
        <source>&apos;%1&apos; is a second variable input of the chain</source>
        <translation>&apos;%1&apos; 是该链的第二个可变输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="247"/>
        <source>&apos;%1&apos; is also a graph output</source>
        <translation>&apos;%1&apos; 也是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="249"/>
        <source>&apos;%1&apos; is not a 4-D tensor with a known channel count</source>
        <translation>&apos;%1&apos; 不是通道数已知的四维张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="250"/>
        <source>&apos;%1&apos; is not a Gather along axis 0</source>
        <translation>&apos;%1&apos; 不是沿轴 0 的 Gather</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="251"/>
        <source>&apos;%1&apos; is not a float constant</source>
        <translation>&apos;%1&apos; 不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="252"/>
        <source>&apos;%1&apos; is not a float32 tensor of rank &gt;= 2</source>
        <translation>&apos;%1&apos; 不是秩 &gt;= 2 的 float32 张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="253"/>
        <source>&apos;%1&apos; is not a number</source>
        <translation>&apos;%1&apos; 不是数字</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="254"/>
        <source>&apos;%1&apos; is not constant</source>
        <translation>&apos;%1&apos; 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="255"/>
        <source>&apos;%1&apos; is not float</source>
        <translation>&apos;%1&apos; 不是 float 类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="256"/>
        <source>&apos;%1&apos; is not float32</source>
        <translation>&apos;%1&apos; 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="257"/>
        <source>&apos;%1&apos; is not produced by a Reshape/Transpose</source>
        <translation>&apos;%1&apos; 不是由 Reshape/Transpose 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="258"/>
        <source>&apos;%1&apos; is not the keys or values of a [2, B, N, P, H] cache</source>
        <translation>&apos;%1&apos; 不是 [2, B, N, P, H] 缓存中的键或值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="259"/>
        <source>&apos;%1&apos; is read by Shape only</source>
        <translation>&apos;%1&apos; 只被 Shape 读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="260"/>
        <source>&apos;%1&apos; is read inside a subgraph</source>
        <translation>&apos;%1&apos; 在子图中被读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="261"/>
        <source>&apos;%1&apos; is read outside the subgraph (%2)</source>
        <translation>&apos;%1&apos; 在子图之外被读取（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="262"/>
        <source>&apos;%1&apos; is read twice by %2</source>
        <translation>&apos;%1&apos; 被 %2 读取了两次</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="263"/>
        <source>&apos;%1&apos; is used inside a subgraph</source>
        <translation>&apos;%1&apos; 在子图内被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="264"/>
        <source>&apos;%1&apos; lives in a subgraph</source>
        <translation>&apos;%1&apos; 位于子图中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="265"/>
        <source>&apos;%1&apos; of shape %2 is not per-channel (varies along axis %3, channels are axis %4)</source>
        <translation>形状为 %2 的 &apos;%1&apos; 不是逐通道的（沿轴 %3 变化，通道是轴 %4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="266"/>
        <source>&apos;%1&apos; stands for no node of the original model</source>
        <translation>“%1”不对应原始模型中的任何节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="267"/>
        <source>&apos;%1&apos; would become a constant of a type other than float</source>
        <translation>&apos;%1&apos; 会变成非 float 类型的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="268"/>
        <source>&apos;%1&apos;: %2; with its scales moved: %3</source>
        <translation>&apos;%1&apos;：%2；移动其缩放因子后：%3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="269"/>
        <source>, 7 bits</source>
        <translation>，7 位</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="270"/>
        <source>--dim %1: the value must be a positive integer</source>
        <translation>--dim %1：值必须是正整数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="271"/>
        <source>--dim wants NAME=VALUE, got &apos;%1&apos;</source>
        <translation>--dim 需要 NAME=VALUE，得到的是 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="272"/>
        <source>1 + %1(...) is not multiplied by x and 0.5</source>
        <translation>1 + %1(...) 没有与 x 和 0.5 相乘</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="273"/>
        <source>1/(1/x) rounds twice and differs from x in the last bit for some x (0 for subnormal x); set reciprocal_pairs=true to remove it anyway</source>
        <translation>1/(1/x) 会舍入两次，对某些 x 在最后一位与 x 不同（次正规数 x 得到 0）；设置 reciprocal_pairs=true 仍可删除它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="274"/>
        <source>A is not float32</source>
        <translation>A 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="275"/>
        <source>A&apos;s rank is unknown or below 2</source>
        <translation>A 的秩未知或小于 2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="276"/>
        <source>A&apos;s scale is not one value</source>
        <translation>A 的缩放因子不是单个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="278"/>
        <source>AVX-512 VNNI</source>
        <translation>AVX-512 VNNI</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="279"/>
        <source>Add output %1</source>
        <translation>Add 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="280"/>
        <source>AveragePool -&gt; Conv</source>
        <translation>AveragePool -&gt; Conv</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="281"/>
        <source>AveragePool before opset 7 never counts pads</source>
        <translation>opset 7 之前的 AveragePool 从不计入填充</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="282"/>
        <source>AveragePool excludes its pads from the count (the divisor varies)</source>
        <translation>AveragePool 不把填充计入元素个数（除数会变化）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="283"/>
        <source>AveragePool has auto_pad</source>
        <translation>AveragePool 设置了 auto_pad</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="284"/>
        <source>AveragePool has ceil_mode = 1</source>
        <translation>AveragePool 设置了 ceil_mode = 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="285"/>
        <source>AveragePool has dilations</source>
        <translation>AveragePool 设置了 dilations</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="286"/>
        <source>AveragePool has its own pads that it does not count (count_include_pad = 0)</source>
        <translation>AveragePool 有自己的、不计入个数的填充（count_include_pad = 0）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="287"/>
        <source>AveragePool output %1</source>
        <translation>AveragePool 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="288"/>
        <source>B is an activation and matmul_const_b_only is set</source>
        <translation>B 是激活值，且设置了 matmul_const_b_only</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="289"/>
        <source>B is not a float32 constant with one value per output channel</source>
        <translation>B 不是每个输出通道一个值的 float32 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="290"/>
        <source>B is not a float32 tensor</source>
        <translation>B 不是 float32 张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="291"/>
        <source>B&apos;s scales are not per column</source>
        <translation>B 的缩放因子不是逐列的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="292"/>
        <source>B&apos;s scales are not per column of a matrix</source>
        <translation>B 的缩放因子不是矩阵的逐列缩放</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="293"/>
        <source>BatchNormalization %1 does not have one value per column</source>
        <translation>BatchNormalization 的 %1 不是每列一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="294"/>
        <source>BatchNormalization %1 has %2 values for %3 channels</source>
        <translation>BatchNormalization 的 %1 有 %2 个值，而通道数为 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="295"/>
        <source>BatchNormalization %1 is not a float constant</source>
        <translation>BatchNormalization 的 %1 不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="296"/>
        <source>BatchNormalization %1 is not constant</source>
        <translation>BatchNormalization 的 %1 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="297"/>
        <source>BatchNormalization B is not a float constant</source>
        <translation>BatchNormalization 的 B 不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="298"/>
        <source>BatchNormalization has is_test = 0 (training mode before opset 7)</source>
        <translation>BatchNormalization 的 is_test = 0（opset 7 之前的训练模式）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="299"/>
        <source>BatchNormalization has is_test = 0 (training mode)</source>
        <translation>BatchNormalization 的 is_test = 0（训练模式）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="300"/>
        <source>BatchNormalization has spatial = 0</source>
        <translation>BatchNormalization 的 spatial = 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="301"/>
        <source>BatchNormalization has spatial = 0 (per-element statistics)</source>
        <translation>BatchNormalization 的 spatial = 0（逐元素统计量）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="302"/>
        <source>BatchNormalization is in training mode</source>
        <translation>BatchNormalization 处于训练模式</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="303"/>
        <source>BatchNormalization output %1</source>
        <translation>BatchNormalization 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="304"/>
        <source>BatchNormalization scale and B differ in length</source>
        <translation>BatchNormalization 的 scale 与 B 长度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="305"/>
        <source>BatchNormalization scale is not a float constant</source>
        <translation>BatchNormalization 的 scale 不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="306"/>
        <source>BitShift output %1</source>
        <translation>BitShift 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="307"/>
        <source>C is not float32</source>
        <translation>C 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="308"/>
        <source>Clip %1 is not a constant scalar</source>
        <translation>Clip 的 %1 不是常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="309"/>
        <source>Clip / 6: %1</source>
        <translation>Clip / 6：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="310"/>
        <source>Clip has a finite max</source>
        <translation>Clip 有有限的上界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="311"/>
        <source>Clip has inputs before opset 11</source>
        <translation>opset 11 之前的 Clip 带有输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="312"/>
        <source>Clip has no min</source>
        <translation>Clip 没有下界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="313"/>
        <source>Clip max is not a constant scalar</source>
        <translation>Clip 的上界不是常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="314"/>
        <source>Clip min is absent or not a constant scalar</source>
        <translation>Clip 的下界缺失或不是常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="315"/>
        <source>Clip min is not 0</source>
        <translation>Clip 的下界不是 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="316"/>
        <source>Clip&apos;s default max before opset 11 is FLT_MAX, not +inf</source>
        <translation>opset 11 之前 Clip 的默认上界是 FLT_MAX，而不是 +inf</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="317"/>
        <source>Clip(x + 3, 0, 6) / 6 is not multiplied by x</source>
        <translation>Clip(x + 3, 0, 6) / 6 没有乘以 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="318"/>
        <source>Clip(x + 3, 0, 6) is not multiplied by x and divided by 6</source>
        <translation>Clip(x + 3, 0, 6) 没有乘以 x 再除以 6</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="319"/>
        <source>Conv -&gt; AveragePool</source>
        <translation>Conv -&gt; AveragePool</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="320"/>
        <source>Conv -&gt; Gemm</source>
        <translation>Conv -&gt; Gemm</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="321"/>
        <source>Conv bias does not have one value per output channel</source>
        <translation>Conv 偏置不是每个输出通道一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="322"/>
        <source>Conv bias is not constant</source>
        <translation>Conv 偏置不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="323"/>
        <source>Conv is not in op_types</source>
        <translation>Conv 不在 op_types 中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="324"/>
        <source>Conv output %1</source>
        <translation>Conv 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="325"/>
        <source>Conv weight is computed from constants but has no static dims or no float type</source>
        <translation>Conv 权重由常量计算而来，但没有静态维度或不是浮点类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="326"/>
        <source>Conv weight is not a float constant</source>
        <translation>Conv 权重不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="327"/>
        <source>Conv weight is not a float tensor</source>
        <translation>Conv 权重不是浮点张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="328"/>
        <source>Conv weight is not constant</source>
        <translation>Conv 权重不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="329"/>
        <source>DepthToSpace in CRD mode is not SpaceToDepth&apos;s inverse</source>
        <translation>CRD 模式的 DepthToSpace 不是 SpaceToDepth 的逆运算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="330"/>
        <source>DequantizeLinear nodes stay apart so each QDQ node unit keeps its own, because merge_dequantize_linear=false</source>
        <translation>DequantizeLinear 节点保持分开，使每个 QDQ 节点单元保留自己的一份，因为 merge_dequantize_linear=false</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="331"/>
        <source>Einsum does not have two inputs</source>
        <translation>Einsum 不是两个输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="332"/>
        <source>Flatten axis is not 1</source>
        <translation>Flatten 的 axis 不是 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="333"/>
        <source>FusedConv runs float32 only (&apos;%1&apos; is %2)</source>
        <translation>FusedConv 只支持 float32（&apos;%1&apos; 是 %2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="334"/>
        <source>FusedGemm runs float32 only (&apos;%1&apos; is %2)</source>
        <translation>FusedGemm 只支持 float32（&apos;%1&apos; 是 %2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="335"/>
        <source>Gather axis is not 0</source>
        <translation>Gather 的 axis 不是 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="336"/>
        <source>Gather axis is out of range</source>
        <translation>Gather 的 axis 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="337"/>
        <source>Gather does not read a Shape</source>
        <translation>Gather 读取的不是 Shape</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="338"/>
        <source>Gather indices are not a constant scalar or 1-D list</source>
        <translation>Gather 的索引不是常量标量或一维列表</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="339"/>
        <source>Gelu approximate &apos;%1&apos; is not known</source>
        <translation>Gelu 的 approximate &apos;%1&apos; 未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="340"/>
        <source>Gelu approximate = &apos;%1&apos; is unknown</source>
        <translation>Gelu 的 approximate = &apos;%1&apos; 未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="341"/>
        <source>Gelu needs opset &gt;= 20</source>
        <translation>Gelu 需要 opset &gt;= 20</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="342"/>
        <source>Gemm C does not broadcast to [M, N]</source>
        <translation>Gemm 的 C 不能广播到 [M, N]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="343"/>
        <source>Gemm C has rank above 2</source>
        <translation>Gemm 的 C 的秩大于 2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="344"/>
        <source>Gemm C is not a float constant</source>
        <translation>Gemm 的 C 不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="345"/>
        <source>Gemm does not take %1</source>
        <translation>Gemm 不接受 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="346"/>
        <source>Gemm needs a C input before opset 11 (model has %1)</source>
        <translation>opset 11 之前 Gemm 需要 C 输入（模型为 %1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="347"/>
        <source>Gemm transposes A</source>
        <translation>Gemm 转置了 A</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="348"/>
        <source>HardSigmoid(x) is not multiplied by x</source>
        <translation>HardSigmoid(x) 没有乘以 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="349"/>
        <source>IR version %1 is from before opset 7 broadcasting; raising it would change how the file&apos;s legacy broadcasts are read</source>
        <translation>IR 版本 %1 早于 opset 7 的广播规则；提升它会改变文件中旧式广播的含义</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="350"/>
        <source>Identity of a sequence or optional is kept</source>
        <translation>保留序列或 optional 的 Identity</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="351"/>
        <source>K and V do not read keys (0) and values (1) of one cache</source>
        <translation>K 和 V 读取的不是同一缓存的键（0）和值（1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="352"/>
        <source>K is not transposed to [B, N, H, T] before the product</source>
        <translation>K 在乘积之前没有转置为 [B, N, H, T]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="353"/>
        <source>K or V is the cache alone</source>
        <translation>K 或 V 只是缓存本身</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="354"/>
        <source>K: %1</source>
        <translation>K：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="355"/>
        <source>LayerNormalization axis is out of range</source>
        <translation>LayerNormalization 的 axis 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="356"/>
        <source>MatMul + Add -&gt; Gemm</source>
        <translation>MatMul + Add -&gt; Gemm</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="357"/>
        <source>MatMul -&gt; Gemm</source>
        <translation>MatMul -&gt; Gemm</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="358"/>
        <source>MatMul operands are not both 2-D</source>
        <translation>MatMul 的两个操作数不都是二维的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="359"/>
        <source>MatMul output %1</source>
        <translation>MatMul 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="360"/>
        <source>MatMul&apos;s A has rank 1</source>
        <translation>MatMul 的 A 秩为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="361"/>
        <source>MatMul&apos;s B has rank %1 (FusedGemm takes a 2-D B)</source>
        <translation>MatMul 的 B 秩为 %1（FusedGemm 需要二维的 B）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="362"/>
        <source>Max has not 2 inputs</source>
        <translation>Max 的输入不是 2 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="363"/>
        <source>MaxPool Indices output is used (indices count the padding)</source>
        <translation>MaxPool 的 Indices 输出被使用（索引会计入填充）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="364"/>
        <source>MaxPool has dilations (a window could miss x)</source>
        <translation>MaxPool 设置了 dilations（窗口可能漏掉 x）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="367"/>
        <source>Mul output %1</source>
        <translation>Mul 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="368"/>
        <source>NaN at element %1</source>
        <translation>第 %1 个元素为 NaN</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="369"/>
        <source>Neg does not take %1</source>
        <translation>Neg 不接受 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="370"/>
        <source>Not output %1</source>
        <translation>Not 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="371"/>
        <source>ONNX Runtime&apos;s CPU provider has no %1 Relu</source>
        <translation>ONNX Runtime 的 CPU 执行提供程序没有 %1 的 Relu</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="372"/>
        <source>ONNX marks %1 as non-deterministic</source>
        <translation>ONNX 将 %1 标记为非确定性算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="373"/>
        <source>Pad axes are not constant</source>
        <translation>Pad 的 axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="374"/>
        <source>Pad has negative pads (a crop)</source>
        <translation>Pad 有负的填充（裁剪）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="375"/>
        <source>Pad mode &apos;%1&apos; is not constant, reflect or edge</source>
        <translation>Pad 模式 &apos;%1&apos; 不是 constant、reflect 或 edge</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="376"/>
        <source>Pad mode is &apos;%1&apos;, not constant</source>
        <translation>Pad 的模式是 &apos;%1&apos;，不是 constant</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="377"/>
        <source>Pad output %1</source>
        <translation>Pad 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="378"/>
        <source>Pad pads are not constant</source>
        <translation>Pad 的 pads 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="379"/>
        <source>Pad pads do not match its axes</source>
        <translation>Pad 的 pads 与其 axes 不匹配</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="380"/>
        <source>Pad pads the batch or channel axis</source>
        <translation>Pad 填充了批次轴或通道轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="381"/>
        <source>Pad value is %1, not 0</source>
        <translation>Pad 的填充值是 %1，不是 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="382"/>
        <source>Pad value is not constant</source>
        <translation>Pad 的填充值不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="383"/>
        <source>PassLab has no schema for %1, so it cannot tell whether it is deterministic</source>
        <translation>PassLab 没有 %1 的算子模式定义，无法判断它是否确定性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="384"/>
        <source>Q is not [B, N, S, H] of the current step</source>
        <translation>Q 不是当前步的 [B, N, S, H]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="385"/>
        <source>Q, K and V are neither outputs of one Split nor Slices of one tensor</source>
        <translation>Q、K 和 V 既不是同一个 Split 的输出，也不是同一张量的 Slice</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="386"/>
        <source>Q, K and V are not outputs of one Split</source>
        <translation>Q、K 和 V 不是同一个 Split 的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="387"/>
        <source>Q, K and V are not split into the same heads</source>
        <translation>Q、K 和 V 没有拆分成相同的注意力头</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="388"/>
        <source>Q, K and V do not have the same width</source>
        <translation>Q、K 和 V 的宽度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="389"/>
        <source>Q: %1</source>
        <translation>Q：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="390"/>
        <source>ReduceMean axes %1 are not the trailing axes</source>
        <translation>ReduceMean 的 axes %1 不是末尾的轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="391"/>
        <source>ReduceMean axes are a non-constant input</source>
        <translation>ReduceMean 的 axes 是非常量输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="392"/>
        <source>ReduceMean axes are empty or invalid</source>
        <translation>ReduceMean 的 axes 为空或无效</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="393"/>
        <source>ReduceMean axes are given as a non-constant input</source>
        <translation>ReduceMean 的 axes 以非常量输入给出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="394"/>
        <source>ReduceMean has keepdims = 0</source>
        <translation>ReduceMean 的 keepdims = 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="395"/>
        <source>ReduceMean of integers truncates; the scale does not commute</source>
        <translation>整数的 ReduceMean 会截断；缩放不能交换次序</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="396"/>
        <source>ReduceMean reduces %1, not every spatial axis %2</source>
        <translation>ReduceMean 归约的是 %1，而不是全部空间轴 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="397"/>
        <source>Relu does not take %1 at opset %2</source>
        <translation>Relu 在 opset %2 不接受 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="398"/>
        <source>Reshape has no shape input</source>
        <translation>Reshape 没有形状输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="399"/>
        <source>Reshape input %1 copies a dim (0 in its shape)</source>
        <translation>Reshape 输入 %1 复制了一个维度（形状中有 0）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="400"/>
        <source>Reshape input %1 has no constant shape of rank %2</source>
        <translation>Reshape 输入 %1 没有秩为 %2 的常量形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="401"/>
        <source>Reshape input %1 would have to move dims that are not 1</source>
        <translation>Reshape 输入 %1 需要移动不为 1 的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="402"/>
        <source>Reshape takes its shape as an input from opset 5</source>
        <translation>从 opset 5 起 Reshape 以输入给出形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="403"/>
        <source>Slice axes are not constant</source>
        <translation>Slice 的 axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="404"/>
        <source>Slice axes are out of range or repeated</source>
        <translation>Slice 的 axes 超出范围或重复</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="405"/>
        <source>Slice before opset 10 has no steps</source>
        <translation>opset 10 之前的 Slice 没有 steps</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="406"/>
        <source>Slice parameters have different lengths</source>
        <translation>Slice 的各参数长度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="407"/>
        <source>Slice starts or ends are not constant</source>
        <translation>Slice 的 starts 或 ends 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="408"/>
        <source>Slice steps are not constant</source>
        <translation>Slice 的 steps 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="409"/>
        <source>Softmax before opset 13 works on its input flattened to 2-D (model has %1)</source>
        <translation>opset 13 之前的 Softmax 作用于展平为二维的输入（模型为 %1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="410"/>
        <source>Softmax output %1</source>
        <translation>Softmax 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="411"/>
        <source>Squeeze axes %1 and Unsqueeze axes %2 differ</source>
        <translation>Squeeze 的 axes %1 与 Unsqueeze 的 axes %2 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="412"/>
        <source>Squeeze has no axes and the input shape is not static</source>
        <translation>Squeeze 没有 axes，且输入形状不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="413"/>
        <source>Squeeze without axes also removes x&apos;s own 1s</source>
        <translation>不带 axes 的 Squeeze 还会去掉 x 自身大小为 1 的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="414"/>
        <source>Tile before opset 6 is not handled</source>
        <translation>不处理 opset 6 之前的 Tile</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="415"/>
        <source>Transpose output %1</source>
        <translation>Transpose 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="416"/>
        <source>Unsqueeze axes %1 and Squeeze axes %2 differ</source>
        <translation>Unsqueeze 的 axes %1 与 Squeeze 的 axes %2 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="417"/>
        <source>Unsqueeze axes are not constant</source>
        <translation>Unsqueeze 的 axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="418"/>
        <source>Unsqueeze inserts %1, not the reduced %2</source>
        <translation>Unsqueeze 插入的是 %1，而不是被归约的 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="419"/>
        <source>Upsample has no scales</source>
        <translation>Upsample 没有 scales</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="420"/>
        <source>Upsample mode &apos;%1&apos; has no Resize form</source>
        <translation>Upsample 模式 &apos;%1&apos; 没有对应的 Resize 形式</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="421"/>
        <source>Upsample-1 is not handled</source>
        <translation>不处理 Upsample-1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="422"/>
        <source>V is not [B, N, T, H]</source>
        <translation>V 不是 [B, N, T, H]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="423"/>
        <source>V: %1</source>
        <translation>V：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="424"/>
        <source>X is not float32</source>
        <translation>X 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="425"/>
        <source>[0, inf]</source>
        <translation>[0, inf]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="426"/>
        <source>[1, inf)</source>
        <translation>[1, inf)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="427"/>
        <source>[lowest, highest]</source>
        <translation>[最低, 最高]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="428"/>
        <source>a 1-D operand with batch indices is not a MatMul</source>
        <translation>带批次索引的一维操作数不是 MatMul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="429"/>
        <source>a Concat input</source>
        <translation>Concat 的一个输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="430"/>
        <source>a Concat input has no static shape</source>
        <translation>某个 Concat 输入没有静态形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="431"/>
        <source>a Concat input is not quantized with the output&apos;s scale and zero point</source>
        <translation>Concat 的一个输入未使用输出的缩放因子和零点量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="432"/>
        <source>a DequantizeLinear of constants is a quantized weight; folding it would store it as float (set fold_dequantize_linear=true to fold anyway)</source>
        <translation>常量的 DequantizeLinear 是量化权重；折叠会把它存为浮点数（设置 fold_dequantize_linear=true 仍可折叠）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="434"/>
        <source>a Pad crops (negative pads)</source>
        <translation>Pad 在裁剪（pads 为负）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="435"/>
        <source>a Pad pads the batch or channel axis</source>
        <translation>Pad 填充了批次轴或通道轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="436"/>
        <source>a Pad reads a combination, not x</source>
        <translation>Pad 读取的是组合结果，而不是 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="437"/>
        <source>a Q/K/V Slice is not one step-1 range of the last axis</source>
        <translation>某个 Q/K/V 的 Slice 不是最后一个轴上步长为 1 的单一区间</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="438"/>
        <source>a RIGHT shift floors each element; the sum does not commute</source>
        <translation>右移会对每个元素向下取整；求和不能交换次序</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="439"/>
        <source>a Relu comes first and the zero point is not the type&apos;s lowest value</source>
        <translation>前面有 Relu，且零点不是该类型的最小值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="440"/>
        <source>a Reshape in the Q/K/V path does not split [B, S, D] into [B, S, N, H]</source>
        <translation>Q/K/V 路径上的某个 Reshape 没有把 [B, S, D] 拆成 [B, S, N, H]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="441"/>
        <source>a Reshape of the result copies a dim past index 1</source>
        <translation>结果的某个 Reshape 复制了索引 1 之后的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="442"/>
        <source>a Reshape of the result has a non-constant shape</source>
        <translation>结果的某个 Reshape 的形状不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="443"/>
        <source>a Slice step is 0</source>
        <translation>某个 Slice 的步长为 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="444"/>
        <source>a Softmax alone, with no scale or mask before it: nothing to fuse</source>
        <translation>单独的 Softmax，前面没有缩放或掩码：没有可融合的内容</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="445"/>
        <source>a Split output is not quantized with its input&apos;s scale and zero point</source>
        <translation>某个 Split 输出未以其输入的缩放因子和零点量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="446"/>
        <source>a Split output is not read by one QuantizeLinear alone</source>
        <translation>某个 Split 输出不是只由一个 QuantizeLinear 读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="447"/>
        <source>a Squeeze without axes removes every dim of size 1</source>
        <translation>不带 axes 的 Squeeze 会去掉所有大小为 1 的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="448"/>
        <source>a Transpose in the Q/K/V path is not of rank 4</source>
        <translation>Q/K/V 路径上的某个 Transpose 的秩不是 4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="449"/>
        <source>a constant of the chain has a higher rank than the 8-bit input</source>
        <translation>该链的一个常量的秩高于 8 位输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="450"/>
        <source>a constant operand cannot be gathered here</source>
        <translation>此处无法对常量操作数做 Gather</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="451"/>
        <source>a constant operand cannot be sliced here</source>
        <translation>此处无法对常量操作数做切片</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="452"/>
        <source>a constant-mode Pad pads with a value other than 0</source>
        <translation>constant 模式的 Pad 用非 0 值填充</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="454"/>
        <source>a convolution&apos;s input quantization is not its producer&apos;s output quantization</source>
        <translation>某个卷积的输入量化参数与其生产者的输出量化参数不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="455"/>
        <source>a grouped Conv</source>
        <translation>分组 Conv</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="456"/>
        <source>a letter repeats within a term (a trace or diagonal)</source>
        <translation>某一项中有重复字母（迹或对角线）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="457"/>
        <source>a lone convolution (its input and readers are channels-first)</source>
        <translation>孤立的卷积（其输入和读取者都是通道在前）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="458"/>
        <source>a mask: 0 or 1</source>
        <translation>掩码：0 或 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="459"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="460"/>
        <source>a pad reaches the kernel size (a window could be all pad)</source>
        <translation>某个填充达到了卷积核大小（窗口可能全部落在填充上）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="461"/>
        <source>a perm is implicit and the rank is unknown</source>
        <translation>某个 perm 是隐式的且秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="462"/>
        <source>a perm is missing and the rank is unknown</source>
        <translation>缺少某个 perm 且秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="463"/>
        <source>a perm is out of range</source>
        <translation>某个 perm 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="464"/>
        <source>a scale is %1</source>
        <translation>某个缩放为 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="465"/>
        <source>a scale is not one constant float32 value</source>
        <translation>某个 scale 不是单个 float32 常量值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="466"/>
        <source>a scale of A or B is not a float32 constant</source>
        <translation>A 或 B 的某个缩放因子不是 float32 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="468"/>
        <source>a scale of x or the output is not one float32 constant</source>
        <translation>x 或输出的 scale 不是单个 float32 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="469"/>
        <source>a side operand cannot be transposed here</source>
        <translation>此处无法转置旁路操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="470"/>
        <source>a side operand has a higher rank than x</source>
        <translation>某个旁路操作数的秩高于 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="471"/>
        <source>a side operand is neither a scalar nor of the reshaped shape</source>
        <translation>某个旁路操作数既不是标量，也不是变形后的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="472"/>
        <source>a side operand is not a float constant</source>
        <translation>某个旁路操作数不是浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="473"/>
        <source>a single Conv: nothing to combine</source>
        <translation>只有一个 Conv：没有可合并的项</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="474"/>
        <source>a stride is not 1</source>
        <translation>某个步长不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="475"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="477"/>
        <source>a transposed operand has unknown rank</source>
        <translation>某个被转置的操作数秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="478"/>
        <source>a value cannot replace itself</source>
        <translation>值不能替换它自己</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="479"/>
        <source>a value inside the gate has other readers</source>
        <translation>门控内部的某个值还有其他读取者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="480"/>
        <source>a value of the subgraph it is in has the name of another value of the model, so calibration cannot tell them apart: it stays float32</source>
        <translation>它所在子图中的一个值与模型中另一个值同名，校准无法区分二者：保持 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="481"/>
        <source>accuracy budget: %1 %2 is outside %3</source>
        <translation>精度预算：%1 %2 超出 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="482"/>
        <source>additive mask</source>
        <translation>加性掩码</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="483"/>
        <source>after taking one index of axis %1, perm %2 still moves data (not a shuffle of that axis)</source>
        <translation>取出轴 %1 的一个索引后，perm %2 仍会移动数据（不是该轴的通道重排）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="484"/>
        <source>algorithm: one window for a linear combination of windows</source>
        <translation>算法：用一个窗口代替若干窗口的线性组合</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="486"/>
        <source>all inputs are constant, but %1</source>
        <translation>所有输入都是常量，但%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="487"/>
        <source>all inputs are constant, but %1 needs a kernel and no evaluator was given (the pipeline supplies the CPU executor)</source>
        <translation>所有输入都是常量，但 %1 需要内核，而没有提供求值器（流水线会提供 CPU 执行器）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="488"/>
        <source>allowzero = 1: a 0 in the shape would mean a dim of size 0, not a copy</source>
        <translation>allowzero = 1：形状中的 0 表示大小为 0 的维度，而不是复制</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="489"/>
        <source>already reads dim &apos;%1&apos; from input &apos;%2&apos;</source>
        <translation>已经从输入 &apos;%2&apos; 读取维度 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="490"/>
        <source>an Add or Sub without two inputs</source>
        <translation>Add 或 Sub 没有两个输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="491"/>
        <source>an array</source>
        <translation>数组</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="492"/>
        <source>an attribute sets its output type</source>
        <translation>其输出类型由属性决定</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="493"/>
        <source>an input is dequantized already</source>
        <translation>某个输入已经反量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="495"/>
        <source>an input type is unknown</source>
        <translation>某个输入类型未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="496"/>
        <source>an op that is not quantized reads the output (a bias Add stays float)</source>
        <translation>有未量化的算子读取该输出（偏置 Add 保持浮点）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="497"/>
        <source>an operand does not hold j</source>
        <translation>某个操作数不含 j</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="498"/>
        <source>an operand has more than two non-batch indices</source>
        <translation>某个操作数有两个以上的非批次索引</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="499"/>
        <source>an operand is an embedding lookup (Gather from a constant table): left for EmbedLayerNormalization</source>
        <translation>某个操作数是嵌入查表（从常量表 Gather）：留给 EmbedLayerNormalization</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="500"/>
        <source>an operand is not of rank 4</source>
        <translation>某个操作数的秩不是 4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="501"/>
        <source>an operand&apos;s rank is unknown</source>
        <translation>某个操作数的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="502"/>
        <source>an output is not a tensor</source>
        <translation>某个输出不是张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="503"/>
        <source>another type or shape</source>
        <translation>类型或形状不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="504"/>
        <source>as many in every input group of %1</source>
        <translation>%1 的每个输入分组中数量相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="505"/>
        <source>attribute changed</source>
        <translation>属性已更改</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="506"/>
        <source>axes are given</source>
        <translation>给出了 axes</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="507"/>
        <source>axis %1 is out of range</source>
        <translation>轴 %1 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="508"/>
        <source>axis %1 is sliced [%2, %3) of a dim %4</source>
        <translation>轴 %1 被切为 [%2, %3)，维度大小为 %4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="509"/>
        <source>batch indices appear in different orders</source>
        <translation>批次索引的顺序不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="510"/>
        <source>batch indices are not leading</source>
        <translation>批次索引不在最前</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="511"/>
        <source>batched MatMul (A rank %1, B rank %2): Gemm takes 2-D operands only, so MatMul + Add is kept</source>
        <translation>批量 MatMul（A 的秩 %1，B 的秩 %2）：Gemm 只接受二维操作数，因此保留 MatMul + Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="513"/>
        <source>before opset 6 Tile takes tiles and axis</source>
        <translation>opset 6 之前 Tile 接受 tiles 和 axis</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="514"/>
        <source>before opset 7 %1 broadcasts by axis attributes; not handled</source>
        <translation>opset 7 之前 %1 按轴属性广播；不处理</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="515"/>
        <source>beta does not broadcast to the normalized shape</source>
        <translation>beta 不能广播到归一化的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="516"/>
        <source>blocked quantization (block_size) ties the scale&apos;s shape to the axes</source>
        <translation>分块量化（block_size）使 scale 的形状与轴绑定</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="517"/>
        <source>blocksize is %1</source>
        <translation>blocksize 为 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="518"/>
        <source>both Slices cut axis %1, whose size is not static</source>
        <translation>两个 Slice 都切轴 %1，而它的大小不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="519"/>
        <source>both operands are the same Transpose</source>
        <translation>两个操作数是同一个 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="520"/>
        <source>both result dims are dynamic</source>
        <translation>结果的两个维度都是动态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="521"/>
        <source>broadcasting %1 with the constant %2 may change its shape</source>
        <translation>%1 与常量 %2 广播可能改变其形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="522"/>
        <source>calibration data: %1 holds no input set (subfolders with input_0.pb or input_0.npy)</source>
        <translation>校准数据：%1 中没有输入集（含 input_0.pb 或 input_0.npy 的子文件夹）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="523"/>
        <source>calibration data: %1 is not a folder</source>
        <translation>校准数据：%1 不是文件夹</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="524"/>
        <source>calibration inputs</source>
        <translation>校准输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="525"/>
        <source>calibration set %1</source>
        <translation>校准集 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="526"/>
        <source>calibration: %1 of %2 input sets hold NaN or infinite values (%3): the ranges come from the finite values only</source>
        <translation>校准：%2 组输入中有 %1 组含有 NaN 或无穷大值（%3）：范围仅取自有限值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="527"/>
        <source>calibration: &apos;%1&apos; is %2, not a tensor</source>
        <translation>校准：&apos;%1&apos; 是 %2，不是张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="528"/>
        <source>calibration: no input sets</source>
        <translation>校准：没有输入集</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="529"/>
        <source>calibration: the model has no value &apos;%1&apos;</source>
        <translation>校准：模型中没有值 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="530"/>
        <source>cannot make up inputs</source>
        <translation>无法生成输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="531"/>
        <source>casts %1 to another type</source>
        <translation>把 %1 转换为另一种类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="534"/>
        <source>channel %1 is not zero where %2 reads it: only a depthwise Conv&apos;s zero filter on the way would make it constant</source>
        <translation>通道 %1 在 %2 读取处不为零：只有途中深度卷积的零滤波器才会使其成为常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="535"/>
        <source>channel %1 stays: it carries the constants of %2 other dead channels into the Convs that pad them</source>
        <translation>通道 %1 保留：它把另外 %2 个死通道的常量带入对其做填充的卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="536"/>
        <source>channel %1: %2 of its elements moved by a quantization step of %3 (at most %4)</source>
        <translation>通道 %1：其 %2 的元素移动了一个量化步长 %3（至多 %4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="537"/>
        <source>channel shuffle %1 (%2 groups): channel %3 goes only with the channels at its place in every group, so that the shuffle stays one</source>
        <translation>通道混洗 %1（%2 组）：通道 %3 只能与每组中同一位置的通道一起移除，这样混洗仍然是混洗</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="538"/>
        <source>compare needs the original and the optimized model</source>
        <translation>比较需要原始模型和优化后的模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="541"/>
        <source>comparison cancelled</source>
        <translation>比较已取消</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="542"/>
        <source>computes the same as %1, but %2</source>
        <translation>计算结果与 %1 相同，但%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="543"/>
        <source>consecutive Transposes (fuse_consecutive_transposes)</source>
        <translation>相邻的 Transpose（fuse_consecutive_transposes）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="544"/>
        <source>constant folding</source>
        <translation>常量折叠</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="545"/>
        <source>constant input %1 cannot be permuted</source>
        <translation>常量输入 %1 无法置换</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="547"/>
        <source>cosine %1, SNR %2 dB, max rel %3</source>
        <translation>余弦 %1，SNR %2 dB，最大相对误差 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="548"/>
        <source>cutting out %1 nodes left %2</source>
        <translation>切出 %1 个节点后剩下 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="549"/>
        <source>cutting out &apos;%1&apos;</source>
        <translation>切出 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="550"/>
        <source>cutting out the original nodes of &apos;%1&apos;</source>
        <translation>切出 &apos;%1&apos; 的原始节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="552"/>
        <source>dim %1</source>
        <translation>维度 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="554"/>
        <source>dim %1 is read from &apos;%2&apos;, not the data</source>
        <translation>维度 %1 读自 &apos;%2&apos;，而不是数据</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="555"/>
        <source>dim %1 is read from dim %2 of the data (0 copies only the same position)</source>
        <translation>维度 %1 读自数据的维度 %2（0 只复制同一位置）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="556"/>
        <source>dim %1 is static (fold_constants folds it)</source>
        <translation>维度 %1 是静态的（由 fold_constants 折叠）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="557"/>
        <source>dim %1 of &apos;%2&apos; has no name (shape inference could not relate it)</source>
        <translation>&apos;%2&apos; 的维度 %1 没有名称（形状推断无法关联它）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="558"/>
        <source>dim %1 of the result is 0</source>
        <translation>结果的维度 %1 为 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="559"/>
        <source>divides by zero</source>
        <translation>除以零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="560"/>
        <source>element %1: %2 vs %3</source>
        <translation>第 %1 个元素：%2 对 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="561"/>
        <source>element %1: %2 vs %3, more than %4 quantization steps of %5 apart</source>
        <translation>元素 %1：%2 对 %3，相差超过 %4 个量化步长（步长 %5）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="562"/>
        <source>element type %1 vs %2</source>
        <translation>元素类型 %1 对 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="563"/>
        <source>element type or shape %1 %2 vs %3 %4</source>
        <translation>元素类型或形状 %1 %2 与 %3 %4 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="564"/>
        <source>empty axes with noop_with_empty_axes</source>
        <translation>axes 为空且设置了 noop_with_empty_axes</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="565"/>
        <source>evaluating it failed: %1</source>
        <translation>求值失败：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="566"/>
        <source>every operand is constant (fold_constants folds it)</source>
        <translation>所有操作数都是常量（由 fold_constants 折叠）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="567"/>
        <source>exact only in the channels-last form (ReduceMean over axes 1, 2): GlobalAveragePool sums in another order</source>
        <translation>仅在通道后置形式（在轴 1、2 上的 ReduceMean）下精确：GlobalAveragePool 的求和顺序不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="568"/>
        <source>fusion: PassLab fused kernel</source>
        <translation>融合：PassLab 融合内核</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="569"/>
        <source>fusion: fold into weights</source>
        <translation>融合：折叠进权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="570"/>
        <source>fusion: horizontal</source>
        <translation>融合：横向合并</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="571"/>
        <source>fusion: into ONNX Runtime contrib ops</source>
        <translation>融合：融合为 ONNX Runtime 扩展算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="572"/>
        <source>fusion: into one standard op</source>
        <translation>融合：融合为一个标准算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="573"/>
        <source>fusion: merge a chain</source>
        <translation>融合：合并算子链</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="574"/>
        <source>gamma does not broadcast to the normalized shape</source>
        <translation>gamma 不能广播到归一化的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="575"/>
        <source>graph output rewired</source>
        <translation>图输出已重新连接</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="576"/>
        <source>grouped %1 (group %2) does not split %3 input channels into its groups</source>
        <translation>分组的 %1（group %2）不能把 %3 个输入通道均分到其分组中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="577"/>
        <source>grouped %1 (group %2) reads them: every input group loses as many channels, %3 each</source>
        <translation>分组的 %1（group %2）读取它们：每个输入分组移除同样多的通道，各 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="578"/>
        <source>grouped %1 pads its input: channel %2 holds %3, which its bias cannot take</source>
        <translation>分组的 %1 对其输入做了填充：通道 %2 的值为 %3，其偏置无法吸收</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="579"/>
        <source>grouped Conv (group %1) keeps its groups of one size: %2 dead channels of each go</source>
        <translation>分组卷积（group %1）保持各组大小相同：每组去掉 %2 个死通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="580"/>
        <source>grouped Conv (group %1): %2 dead channels, but a group has none; only as many in every group can go, so that the groups keep one size</source>
        <translation>分组卷积（group %1）：有 %2 个死通道，但某一组没有；每组只能去掉相同数量，以保持各组大小相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="581"/>
        <source>grouped Conv (group %1): its output channels do not split into its groups</source>
        <translation>分组卷积（group %1）：其输出通道无法均分到各组</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="583"/>
        <source>hoisting: move data movement</source>
        <translation>提升：移动数据搬运</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="584"/>
        <source>hoisting: scale after reducing</source>
        <translation>提升：先归约后缩放</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="585"/>
        <source>hoisting: select before computing</source>
        <translation>提升：先选取后计算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="586"/>
        <source>hoisting: selection before data movement</source>
        <translation>提升：先选取再搬移数据</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="587"/>
        <source>infinity mismatch at element %1</source>
        <translation>第 %1 个元素的无穷大不一致</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="588"/>
        <source>initializer added</source>
        <translation>已添加初始化器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="589"/>
        <source>initializer changed</source>
        <translation>已更改初始化器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="590"/>
        <source>initializer removed</source>
        <translation>已删除初始化器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="591"/>
        <source>inner Slice output %1</source>
        <translation>内层 Slice 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="592"/>
        <source>inner Transpose output %1</source>
        <translation>内层 Transpose 的输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="593"/>
        <source>input %1 %2</source>
        <translation>输入 %1 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="594"/>
        <source>input %1 is neither a Transpose, a Reshape nor a constant</source>
        <translation>输入 %1 既不是 Transpose、Reshape，也不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="595"/>
        <source>input %1 of the shape Concat is not known to hold one element</source>
        <translation>无法确定形状 Concat 的输入 %1 只有一个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="596"/>
        <source>input &apos;%1&apos; %2 = %3 is too small for %4: it needs at least %5</source>
        <translation>输入 &apos;%1&apos; 的 %2 = %3 对 %4 太小：至少需要 %5</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="598"/>
        <source>input &apos;%1&apos; has element type %2, which PassLab cannot generate yet</source>
        <translation>输入 &apos;%1&apos; 的元素类型为 %2，PassLab 目前还无法生成</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="599"/>
        <source>input &apos;%1&apos; has no declared shape; give it a file</source>
        <translation>输入 &apos;%1&apos; 没有声明形状；请为它给出文件</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="600"/>
        <source>input &apos;%1&apos; holds strings</source>
        <translation>输入 &apos;%1&apos; 存放的是字符串</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="601"/>
        <source>input &apos;%1&apos; in %2</source>
        <translation>%2 中的输入 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="602"/>
        <source>input &apos;%1&apos; in calibration set %2</source>
        <translation>校准集 %2 中的输入 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="603"/>
        <source>input &apos;%1&apos; is %2, the model expects %3</source>
        <translation>输入 &apos;%1&apos; 为 %2，模型需要 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="604"/>
        <source>input &apos;%1&apos; is %2, the value given is %3</source>
        <translation>输入 &apos;%1&apos; 是 %2，给出的值是 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="605"/>
        <source>input &apos;%1&apos; is a %2; only tensor inputs can be generated</source>
        <translation>输入 &apos;%1&apos; 是 %2；只能生成张量输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="606"/>
        <source>input rewired</source>
        <translation>输入已重新连接</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="607"/>
        <source>inside the GELU subgraph, %1</source>
        <translation>在 GELU 子图内，%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="608"/>
        <source>integers in [%1, %2)</source>
        <translation>[%1, %2) 中的整数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="609"/>
        <source>integers in [0, 4), default</source>
        <translation>[0, 4) 中的整数（默认）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="610"/>
        <source>is_test = 0 marks a training-mode Dropout</source>
        <translation>is_test = 0 表示训练模式的 Dropout</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="611"/>
        <source>it came from a random op without a seed and no longer does</source>
        <translation>它原本来自未设种子的随机算子，现在不再是</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="612"/>
        <source>it casts back to the source type (an inverse pair)</source>
        <translation>它转换回源类型（互逆对）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="613"/>
        <source>it casts from a 16-bit float (a boundary of a converted region)</source>
        <translation>它从 16 位浮点转换而来（已转换区域的边界）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="614"/>
        <source>it does not cast back to the source type</source>
        <translation>它没有转换回源类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="615"/>
        <source>it draws random numbers</source>
        <translation>它会生成随机数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="616"/>
        <source>it follows a %1 whose weights can absorb it (fuse_conv_batchnorm, fuse_gemm_batchnorm)</source>
        <translation>它跟在一个权重可以吸收它的 %1 之后（fuse_conv_batchnorm、fuse_gemm_batchnorm）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="617"/>
        <source>it has %1 values for %2 axes (the rank would change)</source>
        <translation>它有 %1 个值，对应 %2 个轴（秩会改变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="618"/>
        <source>it has a lower bound</source>
        <translation>它有下界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="619"/>
        <source>it has an axes attribute</source>
        <translation>它有 axes 属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="620"/>
        <source>it has an upper bound</source>
        <translation>它有上界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="621"/>
        <source>it has no axis parameters a Transpose passes through</source>
        <translation>它没有 Transpose 可以穿过的轴参数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="623"/>
        <source>it has no pads attribute</source>
        <translation>它没有 pads 属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="624"/>
        <source>it has several inputs</source>
        <translation>它有多个输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="625"/>
        <source>it has several outputs</source>
        <translation>它有多个输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="626"/>
        <source>it holds subgraphs (they stay float32)</source>
        <translation>它含有子图（子图保持 float32）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="627"/>
        <source>it holds subgraphs: their nodes convert on their own, with float32 inputs and outputs</source>
        <translation>它包含子图：子图内的节点单独转换，输入和输出保持 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="628"/>
        <source>it pads</source>
        <translation>它会填充</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="629"/>
        <source>it reads the transposed value as a parameter too</source>
        <translation>它也把转置后的值作为参数读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="630"/>
        <source>it reads the transposed value as a parameter, not as its data</source>
        <translation>它把转置后的值作为参数读取，而不是作为数据</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="631"/>
        <source>it returns an outer-scope value from a subgraph (ONNX Runtime needs a node there)</source>
        <translation>它从子图直接返回外层作用域的值（ONNX Runtime 要求此处有一个节点）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="632"/>
        <source>it would leave %1 Transposes of %2 (the parts are not transposed back)</source>
        <translation>改写后会留下 %1 个 Transpose（原有 %2 个；各部分没有被转置回去）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="633"/>
        <source>its attribute &apos;%1&apos; is gone by opset %2</source>
        <translation>其属性 &apos;%1&apos; 在算子集 %2 中已不存在</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="634"/>
        <source>its axis is out of range</source>
        <translation>它的轴超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="635"/>
        <source>its indices are not of rank 1 (the rank would change)</source>
        <translation>它的索引不是一维的（秩会改变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="636"/>
        <source>its input %1 does not have %2 values per axis</source>
        <translation>它的输入 %1 不是每个轴 %2 个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="637"/>
        <source>its input %1 is not constant</source>
        <translation>它的输入 %1 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="639"/>
        <source>its input&apos;s rank is unknown (the axis changed meaning at 13)</source>
        <translation>其输入的秩未知（axis 的含义在 13 版改变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="640"/>
        <source>its inputs changed</source>
        <translation>其输入已改变</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="641"/>
        <source>its mask is read (its type changed at 10)</source>
        <translation>其 mask 输出被读取（其类型在 10 版改变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="642"/>
        <source>its neighbours stay float32: the Casts around it would cost more than it saves</source>
        <translation>它的相邻节点保持 float32：两侧的 Cast 开销会超过收益</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="644"/>
        <source>its outputs changed</source>
        <translation>其输出已改变</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="646"/>
        <source>its result feeds one elementwise op of its shape: the group is fused from its last op</source>
        <translation>它的结果只输入一个同形状的逐元素算子：该组从最后一个算子开始融合</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="647"/>
        <source>its schema does not allow %1 for %2 %3 &apos;%4&apos;</source>
        <translation>其算子定义不允许 %2 %3 &apos;%4&apos; 使用 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="648"/>
        <source>its schema is unknown</source>
        <translation>其算子定义未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="649"/>
        <source>its units pass the check per node unit, but %1</source>
        <translation>其单元通过了逐节点单元检查，但 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="650"/>
        <source>its units were not judged (%1)%2</source>
        <translation>其单元未被判定（%1）%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="651"/>
        <source>keepdims = 0 and the result feeds %1 (only Flatten/Reshape consumers are kept unchanged)</source>
        <translation>keepdims = 0，且结果输入 %1（只有 Flatten/Reshape 使用者保持不变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="652"/>
        <source>keepdims = 0 drops the axis (the rank would change)</source>
        <translation>keepdims = 0 会去掉该轴（秩会改变）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="653"/>
        <source>keepdims is 0</source>
        <translation>keepdims 为 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="654"/>
        <source>kept as an input (option keep)</source>
        <translation>作为输入保留（选项 keep）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="655"/>
        <source>kernel %1</source>
        <translation>卷积核 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="657"/>
        <source>layout: channels-last int8</source>
        <translation>布局：通道在后的 int8</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="659"/>
        <source>legacy broadcast other than along axis 1 is not handled</source>
        <translation>不处理沿轴 1 以外的旧式广播</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="660"/>
        <source>malformed recipe: %1</source>
        <translation>格式错误的配方：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="661"/>
        <source>max is %1</source>
        <translation>上界为 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="662"/>
        <source>max relative error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="663"/>
        <source>min is %1</source>
        <translation>下界为 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="664"/>
        <source>model interface: constants</source>
        <translation>模型接口：常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="665"/>
        <source>moves dim %1, which is not known to be 1, across another such dim</source>
        <translation>将未知是否为 1 的维度 %1 移过另一个这样的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="666"/>
        <source>multiplicative mask</source>
        <translation>乘性掩码</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="667"/>
        <source>neither scales nor sizes is a usable constant</source>
        <translation>scales 和 sizes 都不是可用的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="668"/>
        <source>no Reciprocal of the standard deviation</source>
        <translation>没有标准差的 Reciprocal</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="669"/>
        <source>no Transpose within 64 ops</source>
        <translation>64 个算子之内没有 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="670"/>
        <source>no bias or residual Add (%1) and no activation (%2)</source>
        <translation>没有偏置或残差 Add（%1），也没有激活函数（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="671"/>
        <source>no calibration run entered the subgraph it is in (an If branch not taken, a Loop or Scan of no iteration): it stays float32</source>
        <translation>没有任何校准运行进入它所在的子图（未走的 If 分支，或没有迭代的 Loop、Scan）：保持 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="672"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="673"/>
        <source>no constant folding in this search</source>
        <translation>本次搜索不做常量折叠</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="674"/>
        <source>no dim of unknown size is copied from the data at its own position</source>
        <translation>没有大小未知的维度是从数据的同一位置复制的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="675"/>
        <source>no evaluator to compute the chain&apos;s table</source>
        <translation>没有求值器来计算该链的查找表</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="676"/>
        <source>no evaluator to fold the constants</source>
        <translation>没有可用于折叠常量的求值器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="677"/>
        <source>no finite value compared: all %1 values NaN or infinite in both</source>
        <translation>没有比较任何有限值：两者中全部 %1 个值都是 NaN 或无穷大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="678"/>
        <source>no float op between the DequantizeLinear and the QuantizeLinear</source>
        <translation>DequantizeLinear 与 QuantizeLinear 之间没有浮点算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="679"/>
        <source>no float32 result of it may change type</source>
        <translation>它的 float32 结果都不能改变类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="680"/>
        <source>no graph input declares a dim named &apos;%1&apos;</source>
        <translation>没有图输入声明名为 &apos;%1&apos; 的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="681"/>
        <source>no initial state is a constant 0</source>
        <translation>没有哪个初始状态是常量 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="682"/>
        <source>no input is a Transpose with a known perm</source>
        <translation>没有输入是 perm 已知的 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="683"/>
        <source>no input is produced by a BatchNormalization</source>
        <translation>没有输入由 BatchNormalization 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="684"/>
        <source>no input is produced by a Concat</source>
        <translation>没有输入由 Concat 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="685"/>
        <source>no input is produced by a Conv</source>
        <translation>没有输入由 Conv 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="686"/>
        <source>no input is produced by a MatMul</source>
        <translation>没有输入由 MatMul 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="687"/>
        <source>no input sets</source>
        <translation>没有输入集</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="688"/>
        <source>no inverse op within 64 ops</source>
        <translation>64 个算子之内没有逆算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="689"/>
        <source>no model to profile</source>
        <translation>没有可分析的模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="690"/>
        <source>no operand is a %1 by a constant beside a constant</source>
        <translation>没有操作数是与常量相邻的按常量 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="691"/>
        <source>no operand is a constant filled with %1</source>
        <translation>没有操作数是填充为 %1 的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="692"/>
        <source>no operand is a constant scalar 0</source>
        <translation>没有操作数是常量标量 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="693"/>
        <source>no operand is produced by a Transpose</source>
        <translation>没有操作数由 Transpose 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="694"/>
        <source>no operand of the Mul is a HardSigmoid gate of a 4-D tensor</source>
        <translation>Mul 的操作数中没有 4 维张量的 HardSigmoid 门控</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="695"/>
        <source>no original model</source>
        <translation>没有原始模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="696"/>
        <source>no other Slice of the same input and axis</source>
        <translation>同一输入和轴上没有其他 Slice</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="697"/>
        <source>no output</source>
        <translation>没有输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="698"/>
        <source>no perm, and the rank of the input is unknown</source>
        <translation>没有 perm，且输入的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="699"/>
        <source>no perm: the axes are reversed</source>
        <translation>没有 perm：轴被反转</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="700"/>
        <source>no reader transposes the result back</source>
        <translation>没有读取者将结果转置回来</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="701"/>
        <source>no residual Add (%1) and no activation (%2)</source>
        <translation>没有残差 Add（%1），也没有激活函数（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="702"/>
        <source>no value</source>
        <translation>没有值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="703"/>
        <source>no window op limits it</source>
        <translation>没有窗口算子限制它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="704"/>
        <source>node #%1 is not in the main graph</source>
        <translation>节点 #%1 不在主图中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="705"/>
        <source>node added</source>
        <translation>已添加节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="706"/>
        <source>node removed</source>
        <translation>已删除节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="707"/>
        <source>noop_with_empty_axes does not exist for %1 at opset %2</source>
        <translation>opset %2 的 %1 没有 noop_with_empty_axes</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="708"/>
        <source>noop_with_empty_axes is not set</source>
        <translation>未设置 noop_with_empty_axes</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="709"/>
        <source>not Add(Mul(x, a), Sub(beta, Mul(mean, a)))</source>
        <translation>不是 Add(Mul(x, a), Sub(beta, Mul(mean, a)))</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="710"/>
        <source>not Div(Exp(t), ReduceSum(Exp(t)))</source>
        <translation>不是 Div(Exp(t), ReduceSum(Exp(t)))</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="711"/>
        <source>not a 2-D convolution with known weights</source>
        <translation>不是权重已知的二维卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="713"/>
        <source>not a Concat or a com.microsoft QLinearConcat</source>
        <translation>不是 Concat 或 com.microsoft QLinearConcat</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="714"/>
        <source>not a LayerNormalization</source>
        <translation>不是 LayerNormalization</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="715"/>
        <source>not a Mul by a Reciprocal</source>
        <translation>不是乘以 Reciprocal 的 Mul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="716"/>
        <source>not a PassLab recipe (&quot;format&quot;: &quot;passlab-recipe&quot; missing)</source>
        <translation>不是 PassLab 配方（缺少 &quot;format&quot;: &quot;passlab-recipe&quot;）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="717"/>
        <source>not a ReduceMean</source>
        <translation>不是 ReduceMean</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="718"/>
        <source>not a binary elementwise op</source>
        <translation>不是二元逐元素算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="719"/>
        <source>not a layer norm</source>
        <translation>不是层归一化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="720"/>
        <source>not a linear op of windows (Add, Sub, Neg, Mul or Div by a scalar constant, Conv)</source>
        <translation>不是窗口的线性运算（Add、Sub、Neg、乘以或除以标量常量、Conv）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="721"/>
        <source>not a reduction that keeps a single element</source>
        <translation>不是只保留单个元素的归约</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="722"/>
        <source>not a reshape</source>
        <translation>不是变形</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="723"/>
        <source>not ai.passlab RangedDynamicQuantizeLinear</source>
        <translation>不是 ai.passlab RangedDynamicQuantizeLinear</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="724"/>
        <source>not an Add</source>
        <translation>不是 Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="725"/>
        <source>not applied: a node reading &apos;%1&apos; is excluded from this pass</source>
        <translation>未应用：读取 &apos;%1&apos; 的某个节点被排除在此优化遍之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="726"/>
        <source>not applied: it would change %1, which is excluded from this pass</source>
        <translation>未应用：它会改变 %1，而该节点被排除在此优化遍之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="727"/>
        <source>not applied: the node is excluded from this pass</source>
        <translation>未应用：该节点被排除在此优化遍之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="728"/>
        <source>not both operands are Transposes</source>
        <translation>两个操作数不都是 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="729"/>
        <source>not compared: %1</source>
        <translation>未比较：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="730"/>
        <source>not exactly one contracted index</source>
        <translation>被缩并的索引不是恰好一个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="739"/>
        <source>not the standard DynamicQuantizeLinear</source>
        <translation>不是标准的 DynamicQuantizeLinear</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="740"/>
        <source>nothing between the pair (other passes merge it)</source>
        <translation>这一对之间没有任何算子（由其他优化遍合并）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="743"/>
        <source>on the way to another Transpose: %1</source>
        <translation>在通往另一个 Transpose 的路上：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="744"/>
        <source>on the way to the inverse op: %1</source>
        <translation>在通往逆算子的路上：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="745"/>
        <source>op and output names</source>
        <translation>算子与输出名称</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="746"/>
        <source>operand &apos;%1&apos; broadcasts along the gathered axis, which a scalar index removes (it would need a Squeeze)</source>
        <translation>操作数 &apos;%1&apos; 沿被 Gather 的轴广播，而标量索引会去掉该轴（需要一个 Squeeze）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="747"/>
        <source>operand &apos;%1&apos; is neither full-size nor 1 along axis %2</source>
        <translation>操作数 &apos;%1&apos; 沿轴 %2 既不是完整大小也不是 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="748"/>
        <source>opset %1 -&gt; %2, %3 nodes rewritten</source>
        <translation>算子集 %1 -&gt; %2，改写 %3 个节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="749"/>
        <source>opset %1 -&gt; 14 so that %2 written-out HardSwish become the op (an op from opset 14); the raise rewrote %3 other nodes to mean the same</source>
        <translation>opset %1 -&gt; 14，使 %2 个展开写出的 HardSwish 成为该算子（opset 14 中的算子）；升级还改写了 %3 个其他节点，含义不变</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="750"/>
        <source>opset %1 requires its attribute &apos;%2&apos;</source>
        <translation>算子集 %1 要求其属性 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="751"/>
        <source>opset changed</source>
        <translation>算子集已更改</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="752"/>
        <source>optimized model</source>
        <translation>优化后的模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="753"/>
        <source>option &apos;%1&apos; takes a number &gt;= %2 or inf, not &apos;%3&apos;</source>
        <translation>选项 &apos;%1&apos; 的值应为 &gt;= %2 的数或 inf，而不是 &apos;%3&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="754"/>
        <source>option &apos;%1&apos; takes a whole number &gt;= %2, not &apos;%3&apos;</source>
        <translation>选项 &apos;%1&apos; 的值应为 &gt;= %2 的整数，而不是 &apos;%3&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="755"/>
        <source>option &apos;%1&apos; takes true or false, not &apos;%2&apos;</source>
        <translation>选项 &apos;%1&apos; 的值应为 true 或 false，而不是 &apos;%2&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="756"/>
        <source>original model</source>
        <translation>原始模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="757"/>
        <source>output %1 &apos;%2&apos; is used</source>
        <translation>输出 %1 &apos;%2&apos; 被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="758"/>
        <source>output &apos;%1&apos; cannot be compared: %2</source>
        <translation>输出 &apos;%1&apos; 无法比较：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="759"/>
        <source>output &apos;%1&apos; differs on input set %2: %3</source>
        <translation>输出 &apos;%1&apos; 在第 %2 组输入上不同：%3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="761"/>
        <source>output &apos;%1&apos; is missing</source>
        <translation>缺少输出 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="762"/>
        <source>output &apos;%1&apos; is of an exact type and its values changed</source>
        <translation>输出 &apos;%1&apos; 是精确类型，但其数值变了</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="763"/>
        <source>output &apos;%1&apos;: %2 values are NaN or infinite where the original&apos;s are finite</source>
        <translation>输出 &apos;%1&apos;：有 %2 个值为 NaN 或无穷大，而原模型在这些位置是有限值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="764"/>
        <source>output &apos;%1&apos;: %2 values differ where the original&apos;s are NaN or infinite</source>
        <translation>输出 &apos;%1&apos;：原模型为 NaN 或无穷大之处有 %2 个值不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="765"/>
        <source>output &apos;%1&apos;: SNR %2 dB is below %3 dB</source>
        <translation>输出 &apos;%1&apos;：SNR %2 dB 低于 %3 dB</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="766"/>
        <source>output &apos;%1&apos;: cosine similarity %2 is below %3</source>
        <translation>输出 &apos;%1&apos;：余弦相似度 %2 低于 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="767"/>
        <source>output &apos;%1&apos;: max relative error %2 is above %3</source>
        <translation>输出 &apos;%1&apos;：最大相对误差 %2 高于 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="768"/>
        <source>output &apos;%1&apos;: no finite value to compare: all %2 values are NaN or infinite in the original and the same in this model</source>
        <translation>输出 &apos;%1&apos;：没有可比较的有限值：原模型中全部 %2 个值都是 NaN 或无穷大，本模型中也相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="769"/>
        <source>output &apos;%1&apos;: top-%2 agreement %3 is below %4</source>
        <translation>输出“%1”：top-%2 一致率 %3 低于 %4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="770"/>
        <source>output &apos;%1&apos;: top-1 agreement %2 is below %3</source>
        <translation>输出 &apos;%1&apos;：top-1 一致率 %2 低于 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="771"/>
        <source>over the accuracy budget, but within the model&apos;s own tie-rounding noise (its Q/DQ scales moved by one ulp move its outputs as much; at most %1x): %2</source>
        <translation>超出精度预算，但在模型自身的舍入平局噪声之内（将其 Q/DQ 缩放因子移动一个 ulp 会使输出变化同样多；至多 %1 倍）：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="772"/>
        <source>pads %1 are not all zero</source>
        <translation>pads %1 不全为零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="773"/>
        <source>pads does not have two values per axis</source>
        <translation>pads 不是每个轴两个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="774"/>
        <source>part of the larger combination ending at %1</source>
        <translation>属于以 %1 结尾的更大组合</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="775"/>
        <source>pass &apos;%1&apos;</source>
        <translation>优化遍 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="776"/>
        <source>pass &apos;%1&apos; has no option &apos;%2&apos;%3</source>
        <translation>优化遍 &apos;%1&apos; 没有选项 &apos;%2&apos;%3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="777"/>
        <source>pass catalog entry %1</source>
        <translation>Pass 目录第 %1 项</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="778"/>
        <source>pattern &apos;%1&apos; has no ratio to choose: it must be unstructured or channel</source>
        <translation>模式“%1”没有可选择的比例：必须是 unstructured 或 channel</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="779"/>
        <source>per channel</source>
        <translation>按通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="781"/>
        <source>per tensor</source>
        <translation>按张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="782"/>
        <source>perm %1 moves axes</source>
        <translation>perm %1 会移动轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="783"/>
        <source>perm does not fit the rank</source>
        <translation>perm 与秩不符</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="784"/>
        <source>perm is not a permutation</source>
        <translation>perm 不是一个排列</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="785"/>
        <source>precision: bfloat16</source>
        <translation>精度：bfloat16</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="786"/>
        <source>precision: float16</source>
        <translation>精度：float16</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="787"/>
        <source>precision: int8 dynamic</source>
        <translation>精度：int8 动态量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="788"/>
        <source>precision: int8 kernels</source>
        <translation>精度：int8 内核</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="789"/>
        <source>precision: int8 static</source>
        <translation>精度：int8 静态量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="790"/>
        <source>precision: low rank</source>
        <translation>精度：低秩分解</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="792"/>
        <source>profiling cancelled</source>
        <translation>性能分析已取消</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="794"/>
        <source>pruned with the %1 depthwise Convs reading &apos;%2&apos; (%3 channels ranked over them); %4</source>
        <translation>与读取 &apos;%2&apos; 的 %1 个深度卷积一起剪枝（在它们之上对 %3 个通道排序）；%4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="796"/>
        <source>random booleans</source>
        <translation>随机布尔值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="797"/>
        <source>rank %1 of %2 x %3 saves less than min_saving</source>
        <translation>%2 x %3 权重的秩为 %1，节省不足 min_saving</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="798"/>
        <source>reduced axis %1 has size %2</source>
        <translation>被归约的轴 %1 大小为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="799"/>
        <source>redundant computation: shape arithmetic</source>
        <translation>冗余计算：形状运算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="800"/>
        <source>redundant data: duplicate initializers</source>
        <translation>冗余数据：重复的初始化器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="801"/>
        <source>redundant node: common subexpressions</source>
        <translation>冗余节点：公共子表达式</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="802"/>
        <source>redundant node: inverse pairs</source>
        <translation>冗余节点：互逆算子对</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="803"/>
        <source>redundant node: meaningless at inference</source>
        <translation>冗余节点：推理时无意义</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="804"/>
        <source>redundant node: meaningless by parameters</source>
        <translation>冗余节点：参数使其无意义</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="805"/>
        <source>redundant node: meaningless by position</source>
        <translation>冗余节点：位置使其无意义</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="806"/>
        <source>redundant node: meaningless by position (unused result)</source>
        <translation>冗余节点：位置使其无意义（结果未被使用）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="807"/>
        <source>removeInitializer: &apos;%1&apos; is still used</source>
        <translation>removeInitializer：&apos;%1&apos; 仍被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="808"/>
        <source>repeats is not a constant of ones</source>
        <translation>repeats 不是全为 1 的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="809"/>
        <source>repeats must be at least 1</source>
        <translation>重复次数至少为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="810"/>
        <source>replaceAllUsesWith: &apos;%1&apos; is a graph output and cannot be replaced by nothing</source>
        <translation>replaceAllUsesWith：&apos;%1&apos; 是图的输出，不能替换为空</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="811"/>
        <source>roof GEMM</source>
        <translation>峰值 GEMM</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="812"/>
        <source>roof GEMM inputs</source>
        <translation>峰值 GEMM 的输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="813"/>
        <source>roof GEMM model</source>
        <translation>峰值 GEMM 模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="814"/>
        <source>roof measurement cancelled</source>
        <translation>峰值测量已取消</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="815"/>
        <source>roof triad computed a wrong value</source>
        <translation>带宽 triad 算出了错误的值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="816"/>
        <source>running the model before the step on the units&apos; outputs: %1</source>
        <translation>用各单元的输出运行步骤之前的模型：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="817"/>
        <source>running the optimized model</source>
        <translation>运行优化后的模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="818"/>
        <source>running the original model</source>
        <translation>运行原始模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="819"/>
        <source>running the original model for the numeric check</source>
        <translation>为数值检查运行原始模型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="820"/>
        <source>running the rewritten model: %1</source>
        <translation>运行改写后的模型：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="835"/>
        <source>standard ONNX only: FusedConvInteger and RangedDynamicQuantizeLinear are ai.passlab</source>
        <translation>仅限标准 ONNX：FusedConvInteger 和 RangedDynamicQuantizeLinear 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="836"/>
        <source>standard ONNX only: FusedConvInteger is ai.passlab</source>
        <translation>仅限标准 ONNX：FusedConvInteger 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="842"/>
        <source>standard ONNX only: QLinearSqueezeExcite is ai.passlab</source>
        <translation>仅限标准 ONNX：QLinearSqueezeExcite 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="843"/>
        <source>standard ONNX only: RangedDynamicQuantizeLinear and FusedConvInteger are ai.passlab</source>
        <translation>仅限标准 ONNX：RangedDynamicQuantizeLinear 和 FusedConvInteger 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="865"/>
        <source>the 8-bit weight is not constant</source>
        <translation>8 位权重不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="883"/>
        <source>the Cast after the ConvInteger is not to float32</source>
        <translation>ConvInteger 之后的 Cast 不是转换为 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="885"/>
        <source>the Clip bounds are not 0 and 6</source>
        <translation>Clip 的上下界不是 0 和 6</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="886"/>
        <source>the Clip input is not produced by an Add</source>
        <translation>Clip 的输入不是由 Add 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="887"/>
        <source>the Clip input is not x + 3</source>
        <translation>Clip 的输入不是 x + 3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="888"/>
        <source>the Clip output: %1</source>
        <translation>Clip 的输出：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="902"/>
        <source>the Conv&apos;s output is not float32</source>
        <translation>该 Conv 的输出不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="903"/>
        <source>the ConvInteger&apos;s weight or input shape is unknown</source>
        <translation>ConvInteger 的权重或输入形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="904"/>
        <source>the DequantizeLinear is not of an 8-bit tensor with one constant scale and zero point</source>
        <translation>该 DequantizeLinear 的输入不是带单个常量缩放和零点的 8 位张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="907"/>
        <source>the DynamicQuantizeLinear&apos;s output &apos;%1&apos; is a graph output</source>
        <translation>该 DynamicQuantizeLinear 的输出 &apos;%1&apos; 是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="910"/>
        <source>the FusedConvInteger is channels-first: its kernel would scan Y for the range as the DynamicQuantizeLinear does</source>
        <translation>该 FusedConvInteger 为通道优先布局：其内核会像 DynamicQuantizeLinear 一样扫描 Y 来求取范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="911"/>
        <source>the FusedConvInteger is channels-first: its kernel would write Y before quantizing it</source>
        <translation>该 FusedConvInteger 为通道优先布局：其内核会先写出 Y 再量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="912"/>
        <source>the FusedConvInteger&apos;s activation %1 is not computed in its epilogue&apos;s registers</source>
        <translation>该 FusedConvInteger 的激活 %1 不在其收尾阶段的寄存器中计算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="913"/>
        <source>the FusedConvInteger&apos;s output &apos;%1&apos; has other readers (they need it in float)</source>
        <translation>该 FusedConvInteger 的输出 &apos;%1&apos; 还有其他读取者（它们需要浮点值）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="914"/>
        <source>the FusedConvInteger&apos;s output &apos;%1&apos; is a graph output</source>
        <translation>该 FusedConvInteger 的输出 &apos;%1&apos; 是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="915"/>
        <source>the FusedConvInteger&apos;s output &apos;%1&apos; is read twice</source>
        <translation>该 FusedConvInteger 的输出 &apos;%1&apos; 被读取了两次</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="922"/>
        <source>the Gemm has a bias and alpha or beta other than 1</source>
        <translation>该 Gemm 有偏置，且 alpha 或 beta 不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="925"/>
        <source>the Gemm&apos;s output is quantized (its unit with the QuantizeLinear fuses)</source>
        <translation>该 Gemm 的输出已被量化（它与 QuantizeLinear 组成的单元会被融合）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="926"/>
        <source>the HardSigmoid output: %1</source>
        <translation>HardSigmoid 的输出：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="927"/>
        <source>the HardSigmoid&apos;s alpha and beta are not 1/6 and 0.5</source>
        <translation>HardSigmoid 的 alpha 和 beta 不是 1/6 和 0.5</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="936"/>
        <source>the Mul&apos;s scale &apos;%1&apos; is not float32 with one value or one per output channel</source>
        <translation>Mul 的缩放 &apos;%1&apos; 不是单个值或每个输出通道一个值的 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="944"/>
        <source>the QuantizeLinear has no constant scale and 8-bit zero point (one value each)</source>
        <translation>该 QuantizeLinear 没有常量缩放和 8 位零点（各一个值）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="946"/>
        <source>the QuantizeLinear&apos;s input is not computed by a node</source>
        <translation>QuantizeLinear 的输入不是由节点计算的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="947"/>
        <source>the QuantizeLinear&apos;s result is not 256 8-bit values</source>
        <translation>QuantizeLinear 的结果不是 256 个 8 位值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="948"/>
        <source>the RangedDynamicQuantizeLinear does not read a FusedConvInteger&apos;s Y and range</source>
        <translation>该 RangedDynamicQuantizeLinear 没有读取 FusedConvInteger 的 Y 和范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="949"/>
        <source>the RangedDynamicQuantizeLinear lacks an input</source>
        <translation>该 RangedDynamicQuantizeLinear 缺少一个输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="967"/>
        <source>the Softmax output %1</source>
        <translation>Softmax 输出 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="968"/>
        <source>the Softmax&apos;s axis is not the last</source>
        <translation>Softmax 的 axis 不是最后一维</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="990"/>
        <source>the accuracy budget is checked on %1 input sets, the calibration data has %2: a lossy step can pass or fail it by chance on so few; --check %2 checks on all of them</source>
        <translation>精度预算只在 %1 组输入上检查，而校准数据有 %2 组：组数这么少时，有损步骤通过与否可能出于偶然；--check %2 会在全部数据上检查</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="991"/>
        <source>the activation is not the output of a quantized Conv, MatMul or Gemm</source>
        <translation>该激活不是已量化的 Conv、MatMul 或 Gemm 的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1007"/>
        <source>the bias is not one value per column</source>
        <translation>偏置不是每列一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1017"/>
        <source>the chain has more than %1 nodes</source>
        <translation>该链超过 %1 个节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1021"/>
        <source>the chain reads no DequantizeLinear</source>
        <translation>该链没有读取 DequantizeLinear</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1022"/>
        <source>the chain reads two DequantizeLinears (%1, %2)</source>
        <translation>该链读取了两个 DequantizeLinear（%1、%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1023"/>
        <source>the changed node that lost the most: %1; the loss grew most at %2</source>
        <translation>损失最大的已改动节点：%1；损失在 %2 处增长最多</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1025"/>
        <source>the check per node unit: %1</source>
        <translation>逐节点单元检查：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1027"/>
        <source>the combination is too large</source>
        <translation>组合过大</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1028"/>
        <source>the combined window would crop x (a negative pad)</source>
        <translation>合并后的窗口会裁剪 x（填充为负）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1034"/>
        <source>the constant &apos;%1&apos; holds more than one value</source>
        <translation>常量 &apos;%1&apos; 含有不止一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1035"/>
        <source>the constant broadcasts the activation</source>
        <translation>该常量会对激活进行广播</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1044"/>
        <source>the consumer of &apos;%1&apos; is not a %2</source>
        <translation>&apos;%1&apos; 的使用者不是 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1048"/>
        <source>the cost model does not find a column pass and a row pass cheaper (%1 against %2 ns per output element; min_gain %3)</source>
        <translation>代价模型认为列卷积加行卷积并不更便宜（每个输出元素 %1 对 %2 ns；min_gain %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1050"/>
        <source>the cost model does not find one window cheaper (%1 against %2 ns per output element; min_gain %3)</source>
        <translation>代价模型认为单个窗口并不更便宜（每个输出元素 %1 对 %2 ns；min_gain %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1063"/>
        <source>the finite numbers</source>
        <translation>有限数的范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1065"/>
        <source>the gate is not HardSigmoid(DequantizeLinear(QLinearConv(QLinearConv(QuantizeLinear(GlobalAveragePool))))) of the Mul&apos;s other operand</source>
        <translation>门控不是 Mul 另一操作数的 HardSigmoid(DequantizeLinear(QLinearConv(QLinearConv(QuantizeLinear(GlobalAveragePool)))))</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1066"/>
        <source>the gate&apos;s DequantizeLinear does not use its QLinearConv&apos;s output scale</source>
        <translation>门控的 DequantizeLinear 没有使用其 QLinearConv 的输出缩放</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1076"/>
        <source>the input &apos;%1&apos; of &apos;%2&apos; is neither computed nor constant</source>
        <translation>&apos;%2&apos; 的输入 &apos;%1&apos; 既不是计算得到的也不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1079"/>
        <source>the input is not a Mul read only by this QuantizeLinear</source>
        <translation>输入不是只被此 QuantizeLinear 读取的 Mul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1101"/>
        <source>the input of the DynamicQuantizeLinear is not the FusedConvInteger&apos;s Y</source>
        <translation>该 DynamicQuantizeLinear 的输入不是 FusedConvInteger 的 Y</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1102"/>
        <source>the input of the DynamicQuantizeLinear is not written by a FusedConvInteger</source>
        <translation>该 DynamicQuantizeLinear 的输入不是由 FusedConvInteger 写出的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1109"/>
        <source>the kernel is %1, not 1x1</source>
        <translation>卷积核为 %1，不是 1x1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1110"/>
        <source>the kernel is already one row or one column</source>
        <translation>卷积核已经只有一行或一列</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1113"/>
        <source>the kernel is not rank 1 (not separable)</source>
        <translation>卷积核的秩不为 1（不可分离）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1118"/>
        <source>the layer that lost the most: %1</source>
        <translation>损失最大的层：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1119"/>
        <source>the layer that lost the most: %1, not a node the step changed</source>
        <translation>损失最大的层：%1，不是该步骤改动的节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1140"/>
        <source>the model before the step without its units: %1</source>
        <translation>去掉各单元后的步骤前模型：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1151"/>
        <source>the original unit of &apos;%1&apos; has more than %2 nodes</source>
        <translation>&apos;%1&apos; 的原始单元超过 %2 个节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1163"/>
        <source>the pass does not enter If/Loop/Scan bodies</source>
        <translation>该遍不进入 If/Loop/Scan 子图</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1169"/>
        <source>the pooled mean&apos;s QuantizeLinear has no constant scale and zero point (one value each)</source>
        <translation>池化均值的 QuantizeLinear 没有常量缩放和零点（各一个值）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1170"/>
        <source>the pooled mean&apos;s QuantizeLinear has no zero point</source>
        <translation>池化均值的 QuantizeLinear 没有零点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1196"/>
        <source>the recipe&apos;s &quot;calibration&quot; is not {&quot;data&quot;: FOLDER} or {&quot;sets&quot;: COUNT}</source>
        <translation>配方的 &quot;calibration&quot; 不是 {&quot;data&quot;: 文件夹} 或 {&quot;sets&quot;: 数量}</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1197"/>
        <source>the recipe&apos;s calibration sets is %1; it is a count of input sets (1 to 100000)</source>
        <translation>配方的校准集数量为 %1；它应为输入集的数量（1 到 100000）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1198"/>
        <source>the recipe&apos;s check_input_sets is %1; it is a count of input sets (0 or more)</source>
        <translation>配方的 check_input_sets 为 %1；它是输入集的数量（0 或更多）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1216"/>
        <source>the rewritten model has no value for &apos;%1&apos;</source>
        <translation>改写后的模型中没有值 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1219"/>
        <source>the same place in every group of channel shuffle %1</source>
        <translation>通道混洗 %1 每组中的同一位置</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1220"/>
        <source>the same place in every group of channel shuffle %1, as many in every input group of %2</source>
        <translation>通道混洗 %1 每组中的同一位置，%2 的每个输入分组中数量相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1224"/>
        <source>the scale of %1 is not a float32 constant</source>
        <translation>%1 的缩放因子不是 float32 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1225"/>
        <source>the scale of %1 is not one value or one per output channel (axis 0)</source>
        <translation>%1 的缩放因子既不是单个值，也不是每个输出通道一个（axis 0）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1227"/>
        <source>the scaled tensor has other readers</source>
        <translation>被缩放的张量还有其他读取者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1228"/>
        <source>the scaled tensor is a graph input</source>
        <translation>被缩放的张量是图输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1229"/>
        <source>the scaled tensor is not DequantizeLinear, or HardSwish, HardSigmoid, Relu or LeakyRelu of one read only there</source>
        <translation>被缩放的张量不是 DequantizeLinear，也不是只在此处读取的某个值的 HardSwish、HardSigmoid、Relu 或 LeakyRelu</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1241"/>
        <source>the shape of %1 is not constant</source>
        <translation>%1 的形状不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1255"/>
        <source>the step edits nodes in place or inside subgraphs (%1): not judged by units</source>
        <translation>该步骤就地修改了节点或修改了子图中的节点（%1）：不按单元判定</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1259"/>
        <source>the terms have %1 and %2 channels</source>
        <translation>各项分别有 %1 和 %2 个通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1260"/>
        <source>the terms have different output sizes</source>
        <translation>各项的输出尺寸不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1261"/>
        <source>the terms pad x in different modes (%1 and %2)</source>
        <translation>各项以不同模式填充 x（%1 和 %2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1262"/>
        <source>the terms read different values (&apos;%1&apos; and &apos;%2&apos;)</source>
        <translation>各项读取的是不同的值（&apos;%1&apos; 和 &apos;%2&apos;）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1263"/>
        <source>the two convolutions&apos; channels do not chain</source>
        <translation>两个卷积的通道无法衔接</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1274"/>
        <source>the weight is %1, not a float32 Conv weight</source>
        <translation>权重为 %1，不是 float32 的 Conv 权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1277"/>
        <source>the weight is also a graph input (overridable); freeze_initializer_inputs makes it a constant</source>
        <translation>该权重也是图的输入（可被覆盖）；freeze_initializer_inputs 可将其变为常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1281"/>
        <source>the weight is not a float32 constant (an initializer or a Constant node)</source>
        <translation>权重不是 float32 常量（初始值或 Constant 节点）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1284"/>
        <source>the weight&apos;s Constant node holds no tensor</source>
        <translation>权重的 Constant 节点不含张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1289"/>
        <source>the weight&apos;s shape is unknown</source>
        <translation>权重的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1291"/>
        <source>the zero point of %1 is not a constant with one value per scale</source>
        <translation>%1 的零点不是每个缩放因子对应一个值的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1292"/>
        <source>there is no Conv in the combination</source>
        <translation>组合中没有 Conv</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1294"/>
        <source>this CPU</source>
        <translation>本机 CPU</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1295"/>
        <source>this CPU (PASSLAB_MAX_ISA=%1)</source>
        <translation>本机 CPU（PASSLAB_MAX_ISA=%1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1299"/>
        <source>top-k agreement</source>
        <translation>top-k 一致率</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1307"/>
        <source>unit &apos;%1&apos; could not be run: %2</source>
        <translation>单元 &apos;%1&apos; 无法运行：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1308"/>
        <source>unit &apos;%1&apos;: %2</source>
        <translation>单元 &apos;%1&apos;：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1309"/>
        <source>unit &apos;%1&apos;: %2 of %3 elements moved by a quantization step (at most %4)</source>
        <translation>单元 &apos;%1&apos;：%3 个元素中有 %2 个偏移了一个量化步长（至多 %4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1310"/>
        <source>unit &apos;%1&apos;: %2 of channel %3 moved by a quantization step (at most %4)</source>
        <translation>单元 &apos;%1&apos;：通道 %3 中有 %2 偏移了一个量化步长（至多 %4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1311"/>
        <source>unit &apos;%1&apos;: element %2 is %3 quantization steps from the original unit&apos;s</source>
        <translation>单元 &apos;%1&apos;：元素 %2 与原始单元的结果相差 %3 个量化步长</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1312"/>
        <source>unit &apos;%1&apos;: the rewritten model has no value for its input &apos;%2&apos;</source>
        <translation>单元 &apos;%1&apos;：改写后的模型没有其输入 &apos;%2&apos; 的值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1316"/>
        <source>value &apos;%1&apos;, which the step did not rewire, differs from what the model before the step computes from the units&apos; outputs: %2</source>
        <translation>值 &apos;%1&apos;（该步骤未重连）与步骤之前的模型由各单元输出计算出的值不同：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1322"/>
        <source>weights in 7 bits ([-64, 64], reduce_range=auto): %1 has no AVX-512 VNNI or AVX-VNNI (exact int8 dot products), where only such weights run on int8 kernels exactly; reduce_range=false for the full range</source>
        <translation>权重为 7 位（[-64, 64]，reduce_range=auto）：%1 没有 AVX-512 VNNI 或 AVX-VNNI（精确的 int8 点积），在这种 CPU 上只有这样的权重才能在 int8 内核上精确运行；reduce_range=false 可使用完整范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1325"/>
        <source>x * Clip(x + 3, 0, 6) is not divided by 6</source>
        <translation>x * Clip(x + 3, 0, 6) 没有除以 6</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1326"/>
        <source>x * Clip: %1</source>
        <translation>x * Clip：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1328"/>
        <source>x and the output are not quantized to one 8-bit type</source>
        <translation>x 与输出未量化为同一种 8 位类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1331"/>
        <source>x is %1, not float, double or float16</source>
        <translation>x 是 %1，不是 float、double 或 float16</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1341"/>
        <source>{&quot;en&quot;: ..., &quot;zh&quot;: ...}</source>
        <translation>{&quot;en&quot;: ..., &quot;zh&quot;: ...}</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="539"/>
        <source>compared by Equal with %1 (the largest) in %2</source>
        <translation>在 %2 中由 Equal 与 %1（取最大者）比较</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="21"/>
        <source>%1 + %2 stream layers</source>
        <translation>%1 + %2 个同一残差流的层</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="32"/>
        <source>%1 adds them at different channel positions</source>
        <translation>%1 在不同的通道位置上相加它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="33"/>
        <source>%1 adds them to a value of another or unknown shape (a broadcast)</source>
        <translation>%1 把它们加到形状不同或未知的值上（广播）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="34"/>
        <source>%1 adds them to the output of %2, whose channels are laid out otherwise</source>
        <translation>%1 把它们加到 %2 的输出上，而后者的通道排布不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="38"/>
        <source>%1 axes are out of range</source>
        <translation>%1 的轴超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="41"/>
        <source>%1 cannot be raised from opset %2 to %3: %4</source>
        <translation>%1 无法从 opset %2 升级到 %3：%4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="51"/>
        <source>%1 failed its check: %2</source>
        <translation>%1 未通过检查：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="65"/>
        <source>%1 has no axes (it works on every axis)</source>
        <translation>%1 没有 axes（它作用于每个轴）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="98"/>
        <source>%1 layers pruned (%2), %3 residual streams as one: %4 weights set to zero, %5% of their %6 weights zero now (each layer in the explain log)</source>
        <translation>剪枝了 %1 个层（%2），其中 %3 个残差流作为整体剪枝：%4 个权重置零，其 %6 个权重中现有 %5% 为零（各层详情见解释日志）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="111"/>
        <source>%1 of %2 places zero (%3 channels each, ranked by their norm; %4); %5</source>
        <translation>%2 个位置中有 %1 个置零（每个 %3 个通道，按范数排序；%4）；%5</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="119"/>
        <source>%1 output channels, not %2</source>
        <translation>%1 个输出通道，而不是 %2 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="130"/>
        <source>%1 reads the chain as its axes</source>
        <translation>%1 把链上的值作为它的 axes 读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="133"/>
        <source>%1 reads them on one input only</source>
        <translation>%1 只在一个输入上读取它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="157"/>
        <source>%1 written-out HardSwish kept: HardSwish is an op from opset 14, and %2</source>
        <translation>保留了 %1 个展开写出的 HardSwish：HardSwish 是 opset 14 中的算子，且 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="158"/>
        <source>%1 written-out HardSwish kept: HardSwish is an op from opset 14, and the raise would rewrite %2, which this step&apos;s node filter keeps the pass away from</source>
        <translation>保留了 %1 个展开写出的 HardSwish：HardSwish 是 opset 14 中的算子，而升级会改写 %2，该步骤的节点过滤器不允许此 pass 改动它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="159"/>
        <source>%1 written-out HardSwish kept: HardSwish is an op from opset 14, the model imports opset %2, and raise_opset is false</source>
        <translation>保留了 %1 个展开写出的 HardSwish：HardSwish 是 opset 14 中的算子，模型导入的是 opset %2，且 raise_opset 为 false</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="211"/>
        <source>%1: unknown flag %2 (changes_numerics, lossy, exact_per_unit, by_name_only, may_emit_nonstandard)</source>
        <translation>%1：未知标志 %2（可选 changes_numerics、lossy、exact_per_unit、by_name_only、may_emit_nonstandard）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="214"/>
        <source>%1; %2 chains left in NCHW (they would add as many reorders as they save, or more)</source>
        <translation>%1；%2 条链保留为 NCHW（它们增加的重排不少于节省的重排）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="221"/>
        <source>%1; against the model the last step exact per node unit left, %2 (the rounding floor excuses only the roundings of such steps)</source>
        <translation>%1；与上一个按节点单元精确的步骤留下的模型相比，%2（舍入下限只豁免此类步骤的舍入）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="365"/>
        <source>MaxPool ignores padding: the Pad value must be -inf, the lowest float32 of a float32 input, or 0 after a Relu</source>
        <translation>MaxPool 忽略填充：Pad 的值必须是 -inf、float32 输入的最小 float32 值，或 Relu 之后的 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="512"/>
        <source>before opset 13 it works on the input flattened to 2-D at axis %1, and the perm %2 moves an axis across it</source>
        <translation>opset 13 之前它作用于在轴 %1 处展平为二维的输入，而置换 %2 会把一个轴移过该处</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="533"/>
        <source>channel %1 is not zero in %2, which the other input of %3 adds</source>
        <translation>通道 %1 在 %2 中不为零，而 %3 的另一个输入会加上它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="540"/>
        <source>compared by Equal with %1 in %2</source>
        <translation>在 %2 中由 Equal 与 %1 比较</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="553"/>
        <source>dim %1 (%2)</source>
        <translation>维度 %1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="622"/>
        <source>it has no opset attribute (the Softmax opset whose semantics it follows)</source>
        <translation>它没有 opset 属性（即它遵循其语义的 Softmax opset）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="658"/>
        <source>left in NCHW with its chain of %1 nodes: the chain&apos;s reorders would move %2 elements, the NCHW convolutions&apos; own reorders that it saves %3</source>
        <translation>与其 %1 个节点的链一起保留为 NCHW：这条链的重排会搬运 %2 个元素，而它省下的 NCHW 卷积自身的重排只有 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="733"/>
        <source>not pruned: its residual stream (%1 layers, added by %2) is pruned as one, and %3 is %4</source>
        <translation>未剪枝：其残差流（%1 个层，由 %2 相加）作为整体剪枝，而 %3 %4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="734"/>
        <source>not pruned: the node is excluded from this pass</source>
        <translation>未剪枝：该节点被排除在此遍之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="741"/>
        <source>nothing to fuse with</source>
        <translation>没有可融合的对象</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="742"/>
        <source>nothing to fuse with: %1</source>
        <translation>没有可融合的对象：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="760"/>
        <source>output &apos;%1&apos; differs on input set %2: %3 (%4x the noise floor %5)</source>
        <translation>输出 &apos;%1&apos; 在第 %2 组输入上不同：%3（噪声底 %5 的 %4 倍）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="780"/>
        <source>per output channel</source>
        <translation>按输出通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="793"/>
        <source>pruned with its residual stream (%1 channels ranked over its %2 layers): %3 of %4 weights set to zero, %5% of the weight zero now</source>
        <translation>随其残差流一起剪枝（%1 个通道按其 %2 个层统一排序）：%4 个权重中 %3 个置零，现有 %5% 的权重为零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="821"/>
        <source>scales is not constant</source>
        <translation>scales 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="822"/>
        <source>shape %1 vs %2</source>
        <translation>形状 %1 对 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="823"/>
        <source>sizes %1 differ from the input shape</source>
        <translation>sizes %1 与输入形状不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="824"/>
        <source>sizes has the wrong length</source>
        <translation>sizes 长度不对</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="825"/>
        <source>skipped: it emits non-standard ops, and standard ONNX only is on</source>
        <translation>已跳过：它会生成非标准算子，而“仅标准 ONNX”已开启</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="826"/>
        <source>skipped: written for opsets %1-%2, the model uses %3</source>
        <translation>已跳过：它是为 opset %1-%2 编写的，模型使用 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="827"/>
        <source>smallest size %1 accepts</source>
        <translation>%1 接受的最小尺寸</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="828"/>
        <source>sparsity steps %1 is not between 2 and 1000</source>
        <translation>稀疏度步数 %1 不在 2 到 1000 之间</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="829"/>
        <source>spatial = 0 has no form after opset 9</source>
        <translation>spatial = 0 在算子集 9 之后没有对应形式</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="830"/>
        <source>spatial dim %1 is %2</source>
        <translation>空间维度 %1 为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="831"/>
        <source>sqrt(2/pi) * (x + 0.044715 x^3)</source>
        <translation>sqrt(2/pi) * (x + 0.044715 x^3)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="832"/>
        <source>sqrt(2/pi) multiplies no Add</source>
        <translation>sqrt(2/pi) 没有乘以任何 Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="833"/>
        <source>standard ONNX only: FusedAttention is ai.passlab</source>
        <translation>仅标准 ONNX：FusedAttention 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="834"/>
        <source>standard ONNX only: FusedConv is ai.passlab</source>
        <translation>仅标准 ONNX：FusedConv 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="837"/>
        <source>standard ONNX only: FusedElementwise is ai.passlab</source>
        <translation>仅标准 ONNX：FusedElementwise 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="838"/>
        <source>standard ONNX only: FusedGemm is ai.passlab</source>
        <translation>仅标准 ONNX：FusedGemm 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="839"/>
        <source>standard ONNX only: FusedLayerNorm is ai.passlab</source>
        <translation>仅标准 ONNX：FusedLayerNorm 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="840"/>
        <source>standard ONNX only: FusedSoftmax is ai.passlab</source>
        <translation>仅标准 ONNX：FusedSoftmax 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="841"/>
        <source>standard ONNX only: QLinearLookup is ai.passlab</source>
        <translation>仅限标准 ONNX：QLinearLookup 属于 ai.passlab</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="844"/>
        <source>starts, ends, axes or steps are not constant</source>
        <translation>starts、ends、axes 或 steps 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="845"/>
        <source>steps %1 are not all 1</source>
        <translation>steps %1 不全为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="846"/>
        <source>stopped before a fixpoint after %1 sweeps and %2 rewrites (the driver&apos;s cap); rules may still apply</source>
        <translation>经过 %1 轮扫描、%2 次改写后在到达不动点前停止（驱动器的上限）；规则可能仍可应用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="847"/>
        <source>strings differ</source>
        <translation>字符串不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="848"/>
        <source>subgraphs=false, or their If/Loop/Scan node is excluded</source>
        <translation>subgraphs=false，或其 If/Loop/Scan 节点被排除</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="849"/>
        <source>substitution: cheaper op</source>
        <translation>替换：更廉价的算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="850"/>
        <source>substitution: one sliding-window kernel</source>
        <translation>替换：单一滑动窗口内核</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="851"/>
        <source>substitution: opset upgrade</source>
        <translation>替换：算子集升级</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="852"/>
        <source>substitution: simpler ops</source>
        <translation>替换：更简单的算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="853"/>
        <source>tf_crop_and_resize samples a region of interest</source>
        <translation>tf_crop_and_resize 会对感兴趣区域采样</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="854"/>
        <source>the %1 &apos;%2&apos; (%3) does not provably broadcast into the scores (%4)</source>
        <translation>%1 &apos;%2&apos;（%3）无法证明能广播到得分（%4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="855"/>
        <source>the %1 &apos;%2&apos; (%3) widens the scores (%4)</source>
        <translation>%1 &apos;%2&apos;（%3）会扩宽得分（%4）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="856"/>
        <source>the %1 &apos;%2&apos; or the scores have no known shape</source>
        <translation>%1 &apos;%2&apos; 或得分的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="857"/>
        <source>the %1 attributes differ</source>
        <translation>%1 属性不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="858"/>
        <source>the %1 input is not %2 (at x = %3 it is %4, not %5)</source>
        <translation>%1 的输入不是 %2（在 x = %3 处为 %4，而不是 %5）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="859"/>
        <source>the %1 input is not built from x and scalar constants alone</source>
        <translation>%1 的输入不只由 x 和标量常量构成</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="860"/>
        <source>the %1 input is not dequantized</source>
        <translation>%1 输入未经反量化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="861"/>
        <source>the %1 is not on float32</source>
        <translation>%1 不在 float32 上计算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="862"/>
        <source>the %1 output %2</source>
        <translation>%1 的输出%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="863"/>
        <source>the %1 output is not quantized with its input&apos;s scale and zero point (one value each)</source>
        <translation>%1 的输出未使用其输入的缩放因子和零点量化（各为单个值）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="864"/>
        <source>the %1 result is not the operand of an Add of 1</source>
        <translation>%1 的结果不是加 1 的 Add 的操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="866"/>
        <source>the Add adds &apos;%1&apos; to itself</source>
        <translation>该 Add 把 &apos;%1&apos; 与自身相加</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="867"/>
        <source>the Add broadcasts (its operands do not both have its shape)</source>
        <translation>该 Add 会广播（它的操作数不都具有它的形状）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="868"/>
        <source>the Add has a constant operand (a bias, not a residual)</source>
        <translation>该 Add 有一个常量操作数（是偏置，不是残差）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="869"/>
        <source>the Add has no constant operand</source>
        <translation>该 Add 没有常量操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="870"/>
        <source>the Add is not a MatMul plus a constant</source>
        <translation>该 Add 不是 MatMul 加常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="871"/>
        <source>the Add is not x + 0.044715 * x^3</source>
        <translation>该 Add 不是 x + 0.044715 * x^3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="872"/>
        <source>the Add operand %1 does not broadcast to the MatMul result %2</source>
        <translation>该 Add 的操作数 %1 不能广播到 MatMul 的结果 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="873"/>
        <source>the Add&apos;s constant is not a 1-D bias</source>
        <translation>该 Add 的常量不是一维偏置</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="874"/>
        <source>the Add&apos;s other operand &apos;%1&apos; (%2) does not have the Conv output&apos;s shape (%3)</source>
        <translation>该 Add 的另一个操作数 &apos;%1&apos;（%2）与 Conv 输出的形状（%3）不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="875"/>
        <source>the Add&apos;s other operand &apos;%1&apos; (%2) widens the product (%3)</source>
        <translation>该 Add 的另一个操作数 &apos;%1&apos;（%2）会扩宽乘积（%3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="876"/>
        <source>the Add&apos;s other operand &apos;%1&apos; is not float32</source>
        <translation>该 Add 的另一个操作数 &apos;%1&apos; 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="877"/>
        <source>the Add&apos;s result is not [batch, sequence, hidden] (rank %1)</source>
        <translation>该 Add 的结果不是 [batch, sequence, hidden]（秩为 %1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="878"/>
        <source>the BatchNormalization input has no channel axis</source>
        <translation>BatchNormalization 的输入没有通道轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="879"/>
        <source>the BatchNormalization input&apos;s rank is unknown</source>
        <translation>BatchNormalization 输入的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="880"/>
        <source>the BatchNormalization statistics are not constant</source>
        <translation>BatchNormalization 的统计量不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="881"/>
        <source>the BatchNormalization trains</source>
        <translation>BatchNormalization 处于训练状态</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="884"/>
        <source>the Cast is not a widening cast</source>
        <translation>该 Cast 不是扩宽转换</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="889"/>
        <source>the Concat axis is out of range</source>
        <translation>Concat 的 axis 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="890"/>
        <source>the Concat has no axis attribute</source>
        <translation>Concat 没有 axis 属性</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="891"/>
        <source>the Concat is not the cache followed by the current step, in one layout</source>
        <translation>该 Concat 不是以同一布局把缓存接上当前步</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="892"/>
        <source>the Concat output %1</source>
        <translation>Concat 的输出%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="893"/>
        <source>the Conv can absorb the %1 after it (fuse_conv_batchnorm / fuse_conv_add_mul)</source>
        <translation>该 Conv 可以吸收其后的 %1（fuse_conv_batchnorm / fuse_conv_add_mul）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="894"/>
        <source>the Conv has a nonzero bias</source>
        <translation>该 Conv 有非零偏置</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="895"/>
        <source>the Conv has auto_pad</source>
        <translation>该 Conv 设置了 auto_pad</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="896"/>
        <source>the Conv has dilations</source>
        <translation>该 Conv 设置了 dilations</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="897"/>
        <source>the Conv has groups, strides, dilations or pads</source>
        <translation>该 Conv 有分组、步长、膨胀或填充</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="898"/>
        <source>the Conv has no bias and Gemm needs a C input before opset 11</source>
        <translation>该 Conv 没有偏置，而 opset 11 之前 Gemm 需要 C 输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="899"/>
        <source>the Conv input&apos;s rank is unknown or not 3-5</source>
        <translation>该 Conv 输入的秩未知或不在 3-5 之间</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="900"/>
        <source>the Conv is not depthwise (group = channels)</source>
        <translation>该 Conv 不是逐深度卷积（group = 通道数）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="901"/>
        <source>the Conv multiplies channels</source>
        <translation>该 Conv 会成倍增加通道</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="905"/>
        <source>the DequantizeLinear of %1 has no zero point</source>
        <translation>%1 的 DequantizeLinear 没有零点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="906"/>
        <source>the Div is not on float32</source>
        <translation>该 Div 不是 float32 上的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="908"/>
        <source>the Erf input is not x / sqrt(2)</source>
        <translation>Erf 的输入不是 x / sqrt(2)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="909"/>
        <source>the FastGelu already has a bias</source>
        <translation>该 FastGelu 已有偏置</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="916"/>
        <source>the GELU input is not a bias Add: %1</source>
        <translation>GELU 的输入不是偏置 Add：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="917"/>
        <source>the Gather index is not constant</source>
        <translation>Gather 的索引不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="918"/>
        <source>the Gather index is not one integer</source>
        <translation>Gather 的索引不是单个整数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="919"/>
        <source>the Gather index is out of range</source>
        <translation>Gather 的索引越界</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="920"/>
        <source>the Gather producing &apos;%1&apos; does not read a constant [rows, %2] table of the result&apos;s type</source>
        <translation>产生 &apos;%1&apos; 的 Gather 读取的不是结果类型的常量 [rows, %2] 表</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="921"/>
        <source>the Gather selects as many elements as it reads</source>
        <translation>该 Gather 选取的元素与读取的一样多</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="923"/>
        <source>the Gemm has alpha</source>
        <translation>该 Gemm 有 alpha</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="924"/>
        <source>the Gemm&apos;s C is not a plain bias (beta 1, one value per column)</source>
        <translation>该 Gemm 的 C 不是普通偏置（beta 为 1，每列一个值）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="928"/>
        <source>the LayerNormalization bias is not constant</source>
        <translation>LayerNormalization 的偏置不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="929"/>
        <source>the LayerNormalization scale is not constant</source>
        <translation>LayerNormalization 的缩放不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="930"/>
        <source>the MatMul input is not an NCHW -&gt; NHWC Transpose</source>
        <translation>MatMul 的输入不是 NCHW -&gt; NHWC 的 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="931"/>
        <source>the MatMul operand ranks are unknown</source>
        <translation>MatMul 操作数的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="932"/>
        <source>the MatMul operands&apos; ranks are not known</source>
        <translation>MatMul 各操作数的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="933"/>
        <source>the MatMul weight is not a 2-D float constant</source>
        <translation>MatMul 的权重不是二维浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="934"/>
        <source>the Megatron mask is not a [B, 1, M, M] tensor</source>
        <translation>Megatron 掩码不是 [B, 1, M, M] 张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="935"/>
        <source>the Mul is not by a constant scalar</source>
        <translation>该 Mul 不是乘以常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="937"/>
        <source>the Optional is empty</source>
        <translation>该 Optional 为空</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="938"/>
        <source>the Pad&apos;s mode is not constant</source>
        <translation>该 Pad 的模式不是 constant</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="939"/>
        <source>the Pad&apos;s value is not a constant 0</source>
        <translation>该 Pad 的填充值不是常量 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="940"/>
        <source>the Q/K/V path is too long</source>
        <translation>Q/K/V 路径太长</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="941"/>
        <source>the Q/K/V projection is not x · W (+ b): MatMul (+ Add) or Reshape -&gt; Gemm -&gt; Reshape</source>
        <translation>Q/K/V 投影不是 x · W (+ b)：MatMul (+ Add) 或 Reshape -&gt; Gemm -&gt; Reshape</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="942"/>
        <source>the QLinearConcat has %1 inputs, not 2 + 3 per data input</source>
        <translation>该 QLinearConcat 有 %1 个输入，而不是 2 + 每个数据输入 3 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="943"/>
        <source>the QuantizeLinear has no 8-bit zero point (one constant)</source>
        <translation>该 QuantizeLinear 没有 8 位零点（单个常量）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="945"/>
        <source>the QuantizeLinear has no zero point</source>
        <translation>该 QuantizeLinear 没有零点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="950"/>
        <source>the ReduceSum is not over the last axis alone with keepdims = 1</source>
        <translation>该 ReduceSum 不是只在最后一个轴上且 keepdims = 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="951"/>
        <source>the Relu&apos;s output %1</source>
        <translation>Relu 的输出%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="952"/>
        <source>the Reshape of &apos;%1&apos; does not split [B, S, D] into [B, S, N, H] (%2 -&gt; %3)</source>
        <translation>&apos;%1&apos; 的 Reshape 没有把 [B, S, D] 拆成 [B, S, N, H]（%2 -&gt; %3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="953"/>
        <source>the Reshapes around the projection Gemm do not flatten [B, S, Din] and restore [B, S]</source>
        <translation>投影 Gemm 前后的 Reshape 没有展平 [B, S, Din] 并还原 [B, S]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="954"/>
        <source>the Shapes it reads would need %1 Gathers for %2 Transposes</source>
        <translation>它读取的 Shape 需要 %1 个 Gather，而只省去 %2 个 Transpose</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="955"/>
        <source>the Slice cuts another axis than the Concat&apos;s</source>
        <translation>该 Slice 切的轴与 Concat 的不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="956"/>
        <source>the Slice cuts more than one axis or has a step other than 1</source>
        <translation>该 Slice 切了多个轴，或步长不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="957"/>
        <source>the Slice is empty</source>
        <translation>该 Slice 为空</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="958"/>
        <source>the Slice keeps every element</source>
        <translation>该 Slice 保留了所有元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="959"/>
        <source>the Slice range is not exactly one Concat input</source>
        <translation>该 Slice 的范围不恰好是一个 Concat 输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="960"/>
        <source>the Slices all take the whole axis</source>
        <translation>这些 Slice 都取整个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="961"/>
        <source>the Slices of this input overlap; they do not split it</source>
        <translation>此输入的各 Slice 相互重叠；它们并未拆分该输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="962"/>
        <source>the Softmax input has no known rank</source>
        <translation>Softmax 输入的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="963"/>
        <source>the Softmax input has no known rank &gt;= 2</source>
        <translation>Softmax 输入的秩未知或小于 2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="964"/>
        <source>the Softmax input is not of rank 4</source>
        <translation>Softmax 输入的秩不是 4</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="965"/>
        <source>the Softmax is not on float32</source>
        <translation>该 Softmax 不是 float32 上的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="966"/>
        <source>the Softmax is not over the last axis</source>
        <translation>该 Softmax 不在最后一个轴上</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="969"/>
        <source>the Split axis is out of range</source>
        <translation>Split 的 axis 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="970"/>
        <source>the Split does not divide the last axis evenly</source>
        <translation>该 Split 不能均分最后一个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="971"/>
        <source>the Split has an output besides Q, K and V that is read</source>
        <translation>该 Split 在 Q、K 和 V 之外还有被读取的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="972"/>
        <source>the Split is not along the static last axis</source>
        <translation>该 Split 不是沿静态的最后一个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="973"/>
        <source>the Sqrt input is not ReduceMean + a constant epsilon</source>
        <translation>Sqrt 的输入不是 ReduceMean 加常量 epsilon</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="974"/>
        <source>the Sqrt input is not an Add of epsilon</source>
        <translation>Sqrt 的输入不是加 epsilon 的 Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="975"/>
        <source>the Sub does not subtract ReduceMean(x) from x</source>
        <translation>该 Sub 不是从 x 中减去 ReduceMean(x)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="976"/>
        <source>the Sub is not s * m - k * (1 - m) with a large k (a Megatron mask)</source>
        <translation>该 Sub 不是带大常数 k 的 s * m - k * (1 - m)（Megatron 掩码）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="977"/>
        <source>the Tanh input is not sqrt(2/pi) * (...)</source>
        <translation>Tanh 的输入不是 sqrt(2/pi) * (...)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="978"/>
        <source>the Transpose feeds both operands</source>
        <translation>该 Transpose 同时输入两个操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="979"/>
        <source>the Transpose is not NHWC -&gt; NCHW</source>
        <translation>该 Transpose 不是 NHWC -&gt; NCHW</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="980"/>
        <source>the Transpose is not a 2-D transpose (perm [1, 0])</source>
        <translation>该 Transpose 不是二维转置（perm [1, 0]）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="981"/>
        <source>the Transpose reorders the axes the reduction keeps</source>
        <translation>该 Transpose 重排了归约所保留的轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="982"/>
        <source>the Transposes have different perms</source>
        <translation>这些 Transpose 的 perm 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="983"/>
        <source>the Unsqueeze axes are not valid for the input rank</source>
        <translation>Unsqueeze 的 axes 对输入的秩无效</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="984"/>
        <source>the Where condition is not bool</source>
        <translation>Where 的条件不是 bool</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="985"/>
        <source>the Where condition is not sliced from a constant [1, 1, M, M] matrix</source>
        <translation>Where 的条件不是从常量 [1, 1, M, M] 矩阵切出的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="986"/>
        <source>the Where condition is not triangular (not a causal mask)</source>
        <translation>Where 的条件不是三角形的（不是因果掩码）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="987"/>
        <source>the Where does not write a large negative constant where the mask is off</source>
        <translation>Where 在掩码关闭处写入的不是很大的负常数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="988"/>
        <source>the Where does not write a scalar constant where the mask is off</source>
        <translation>Where 在掩码关闭处写入的不是标量常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="989"/>
        <source>the [N, C] result is a graph output</source>
        <translation>[N, C] 结果是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="992"/>
        <source>the additive mask &apos;%1&apos; is not float32</source>
        <translation>加性掩码 &apos;%1&apos; 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="993"/>
        <source>the additive mask is not [B, 1, 1, T] (%1)</source>
        <translation>加性掩码不是 [B, 1, 1, T]（%1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="994"/>
        <source>the additive mask is not unsqueezed from a [B, T] mask</source>
        <translation>加性掩码不是由 [B, T] 掩码 Unsqueeze 而来</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="995"/>
        <source>the axes are left out and the length of starts is unknown</source>
        <translation>省略了 axes，且 starts 的长度未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="996"/>
        <source>the axes are not constant</source>
        <translation>axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="997"/>
        <source>the axes are out of range</source>
        <translation>axes 超出范围</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="998"/>
        <source>the axes cannot be resolved</source>
        <translation>无法确定 axes</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="999"/>
        <source>the axis is not a constant</source>
        <translation>轴不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1000"/>
        <source>the bias</source>
        <translation>偏置</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1001"/>
        <source>the bias Add changes the type or shape</source>
        <translation>偏置 Add 改变了类型或形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1002"/>
        <source>the bias Add&apos;s result &apos;%1&apos; has other uses</source>
        <translation>偏置 Add 的结果 &apos;%1&apos; 还有其他用途</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1003"/>
        <source>the bias does not hold one value per element of the last dim</source>
        <translation>偏置不是最后一维每个元素一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1004"/>
        <source>the bias is not a constant int32 DequantizeLinear</source>
        <translation>偏置不是常量 int32 的 DequantizeLinear</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1005"/>
        <source>the bias is not a float32 constant</source>
        <translation>偏置不是 float32 常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1009"/>
        <source>the bias&apos;s scale is not x_scale * w_scale</source>
        <translation>偏置的缩放因子不是 x_scale * w_scale</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1010"/>
        <source>the bias&apos;s zero point is not 0</source>
        <translation>偏置的零点不是 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1011"/>
        <source>the block sizes differ</source>
        <translation>块大小不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1012"/>
        <source>the bounds are not the same</source>
        <translation>上下界不相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1013"/>
        <source>the budget cannot be met: with every ranked node kept in float32 %1</source>
        <translation>无法满足预算：即使所有排序中的节点都保留 float32，%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1014"/>
        <source>the cache is not concatenated along the sequence axis</source>
        <translation>缓存不是沿序列轴拼接的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1015"/>
        <source>the chain before the Softmax is too long</source>
        <translation>Softmax 之前的链太长</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1016"/>
        <source>the chain enters a subgraph</source>
        <translation>该链进入了子图</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1018"/>
        <source>the chain meets %1</source>
        <translation>该链遇到 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1019"/>
        <source>the chain meets %1, which a Transpose does not pass</source>
        <translation>该链遇到 %1，而 Transpose 无法穿过它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1020"/>
        <source>the chain meets %1, which it cannot pass: %2</source>
        <translation>链遇到 %1，无法穿过：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1024"/>
        <source>the channel counts of the inputs of %1 are not known</source>
        <translation>%1 各输入的通道数未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1026"/>
        <source>the chosen operand %1 is not known to have the result&apos;s type %2</source>
        <translation>无法确定所选操作数 %1 具有结果的类型 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1029"/>
        <source>the condition is constant, but the taken branch has sparse initializers</source>
        <translation>条件是常量，但所走分支有稀疏初始化器</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1030"/>
        <source>the condition is constant, but the taken branch holds %1, which has subgraphs; inlining those is not supported</source>
        <translation>条件是常量，但所走分支包含 %1，它含有子图；不支持内联这种子图</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1031"/>
        <source>the condition is not a constant all true or all false</source>
        <translation>条件不是全真或全假的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1032"/>
        <source>the condition is not produced by a Not</source>
        <translation>条件不是由 Not 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1033"/>
        <source>the constant %1 is not exactly representable in %2</source>
        <translation>常量 %1 无法在 %2 中精确表示</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1036"/>
        <source>the constant is %1, not %2</source>
        <translation>常量为 %1，而不是 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1037"/>
        <source>the constant operand&apos;s dim</source>
        <translation>常量操作数的维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1038"/>
        <source>the constant&apos;s broadcast widens x</source>
        <translation>常量的广播会扩宽 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1039"/>
        <source>the constant&apos;s type differs from the BatchNormalization&apos;s scale</source>
        <translation>该常量的类型与 BatchNormalization 的 scale 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1040"/>
        <source>the constant&apos;s type differs from the weights&apos;</source>
        <translation>常量的类型与权重的不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1041"/>
        <source>the constants are not of one float type</source>
        <translation>这些常量不是同一种浮点类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1042"/>
        <source>the constants could not be folded</source>
        <translation>无法折叠这些常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1043"/>
        <source>the consumer of &apos;%1&apos; (%2) is not an activation</source>
        <translation>&apos;%1&apos; 的使用者（%2）不是激活函数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1045"/>
        <source>the consumer of &apos;%1&apos; is not an Add</source>
        <translation>&apos;%1&apos; 的使用者不是 Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1046"/>
        <source>the context heads are not merged by a Reshape</source>
        <translation>上下文的各头没有由 Reshape 合并</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1047"/>
        <source>the context is not transposed back to [B, S, N, H]</source>
        <translation>上下文没有转置回 [B, S, N, H]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1049"/>
        <source>the cost model does not find it cheaper (%1 against %2)</source>
        <translation>代价模型认为它并不更省（%1 对 %2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1051"/>
        <source>the cost model does not know every shape</source>
        <translation>代价模型不知道所有形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1052"/>
        <source>the dequantized input is not 8-bit</source>
        <translation>反量化的输入不是 8 位</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1053"/>
        <source>the dividend is not a Sub</source>
        <translation>被除数不是 Sub</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1054"/>
        <source>the divisor %1 is not a power of two, so x * (1/c) may differ in the last bit (option exact_only=false allows it)</source>
        <translation>除数 %1 不是 2 的幂，x * (1/c) 可能在最后一位不同（选项 exact_only=false 允许这样做）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1055"/>
        <source>the divisor holds 0, inf or NaN</source>
        <translation>除数含有 0、inf 或 NaN</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1056"/>
        <source>the divisor is not a Sqrt</source>
        <translation>除数不是 Sqrt</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1057"/>
        <source>the divisor is not a float constant (integer division truncates)</source>
        <translation>除数不是浮点常量（整数除法会截断）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1058"/>
        <source>the divisor is not constant</source>
        <translation>除数不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1059"/>
        <source>the equation does not have two operands</source>
        <translation>等式不是两个操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1060"/>
        <source>the equation has no explicit output</source>
        <translation>等式没有显式的输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1061"/>
        <source>the evaluator returned %1 outputs</source>
        <translation>求值器返回了 %1 个输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1062"/>
        <source>the exponentials are read elsewhere</source>
        <translation>指数结果在别处还被读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1064"/>
        <source>the folded constant would have %1 elements, more than either operand</source>
        <translation>折叠后的常量将有 %1 个元素，多于任一操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1067"/>
        <source>the gathered axis has no static size</source>
        <translation>被 Gather 的轴没有静态大小</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1068"/>
        <source>the group&apos;s time is %1&apos;s scalar libm calls, the same fused or not, above %2 elements (bench_fused_kernels); &apos;%3&apos; has %4 elements</source>
        <translation>超过 %2 个元素时，该组的耗时取决于 %1 的标量 libm 调用，融合与否都一样（bench_fused_kernels）；&apos;%3&apos; 有 %4 个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1069"/>
        <source>the heads do not keep x&apos;s batch and sequence dims</source>
        <translation>这些头没有保留 x 的批次和序列维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1070"/>
        <source>the ids of the Gather producing &apos;%1&apos; are not [batch, sequence]</source>
        <translation>产生 &apos;%1&apos; 的 Gather 的 ids 不是 [batch, sequence]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1071"/>
        <source>the ids of the Gather producing &apos;%1&apos; are not an integer model input (computed ids are left alone)</source>
        <translation>产生 &apos;%1&apos; 的 Gather 的 ids 不是整数模型输入（计算出的 ids 不处理）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1072"/>
        <source>the inner %1 has no constant operand</source>
        <translation>内层 %1 没有常量操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1073"/>
        <source>the inner %1&apos;s result %2</source>
        <translation>内层 %1 的结果 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1074"/>
        <source>the inner Concat uses another axis</source>
        <translation>内层 Concat 使用了另一个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1075"/>
        <source>the input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1077"/>
        <source>the input Transposes have different perms</source>
        <translation>输入的 Transpose 的 perm 不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1078"/>
        <source>the input is a constant</source>
        <translation>输入是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1080"/>
        <source>the input is not a Transpose, or a Reshape of one</source>
        <translation>输入不是 Transpose，也不是 Transpose 的 Reshape</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1081"/>
        <source>the input is not a float32 tensor</source>
        <translation>输入不是 float32 张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1082"/>
        <source>the input is not produced by %1</source>
        <translation>输入不是由 %1 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1083"/>
        <source>the input is not produced by Clip</source>
        <translation>输入不是由 Clip 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1084"/>
        <source>the input is not produced by HardSwish, HardSigmoid, Relu or LeakyRelu</source>
        <translation>该输入不是由 HardSwish、HardSigmoid、Relu 或 LeakyRelu 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1085"/>
        <source>the input is not produced by MaxPool, Pad, Reshape, Flatten, Transpose, Squeeze, Unsqueeze or Identity</source>
        <translation>输入不是由 MaxPool、Pad、Reshape、Flatten、Transpose、Squeeze、Unsqueeze 或 Identity 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1086"/>
        <source>the input is not produced by Reshape/Flatten/Squeeze/Unsqueeze</source>
        <translation>输入不是由 Reshape/Flatten/Squeeze/Unsqueeze 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1087"/>
        <source>the input is not produced by a %1</source>
        <translation>输入不是由 %1 产生</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1088"/>
        <source>the input is not produced by a BitShift</source>
        <translation>输入不是由 BitShift 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1089"/>
        <source>the input is not produced by a Concat</source>
        <translation>输入不是由 Concat 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1090"/>
        <source>the input is not produced by a Conv</source>
        <translation>输入不是由 Conv 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1091"/>
        <source>the input is not produced by a Gemm or MatMul</source>
        <translation>输入不是由 Gemm 或 MatMul 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1092"/>
        <source>the input is not produced by a MatMul</source>
        <translation>输入不是由 MatMul 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1093"/>
        <source>the input is not produced by a Mul</source>
        <translation>输入不是由 Mul 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1094"/>
        <source>the input is not produced by a Pad</source>
        <translation>输入不是由 Pad 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1095"/>
        <source>the input is not produced by a Slice</source>
        <translation>输入不是由 Slice 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1096"/>
        <source>the input is not produced by a Softmax</source>
        <translation>输入不是由 Softmax 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1097"/>
        <source>the input is not produced by a Transpose</source>
        <translation>输入不是由 Transpose 产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1098"/>
        <source>the input is not produced by a matching op</source>
        <translation>输入不是由匹配的算子产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1099"/>
        <source>the input is not produced by a reduction</source>
        <translation>输入不是由归约算子产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1100"/>
        <source>the input is not produced by an elementwise op</source>
        <translation>输入不是由逐元素算子产生的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1103"/>
        <source>the input or output is missing</source>
        <translation>缺少输入或输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1104"/>
        <source>the input shape is not static</source>
        <translation>输入形状不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1105"/>
        <source>the input type is unknown</source>
        <translation>输入类型未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1106"/>
        <source>the input&apos;s shape is unknown</source>
        <translation>输入的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1107"/>
        <source>the input&apos;s zero point is not one constant of its type</source>
        <translation>该输入的零点不是其类型的单个常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1111"/>
        <source>the kernel is not 1x1</source>
        <translation>卷积核不是 1x1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1112"/>
        <source>the kernel is not 2-D</source>
        <translation>卷积核不是二维的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1114"/>
        <source>the last reshape does not restore x&apos;s shape</source>
        <translation>最后的变形没有还原 x 的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1115"/>
        <source>the layer norm input is not an Add</source>
        <translation>层归一化的输入不是 Add</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1116"/>
        <source>the layer norm normalizes %1 axes; EmbedLayerNormalization normalizes the last one</source>
        <translation>该层归一化对 %1 个轴归一化；EmbedLayerNormalization 只对最后一个轴归一化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1117"/>
        <source>the layer norm normalizes %1 axes; SkipLayerNormalization normalizes the last one</source>
        <translation>该层归一化对 %1 个轴归一化；SkipLayerNormalization 只对最后一个轴归一化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1121"/>
        <source>the legacy-broadcast operand is not one value per channel</source>
        <translation>旧式广播的操作数不是每个通道一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1122"/>
        <source>the lookup &apos;%1&apos; has other readers</source>
        <translation>查表 &apos;%1&apos; 还有其他读取者</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1123"/>
        <source>the lookups do not all have the sum&apos;s shape</source>
        <translation>这些查表不都具有求和结果的形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1124"/>
        <source>the mask &apos;%1&apos; (%2) does not provably broadcast into the scores (%3)</source>
        <translation>无法证明掩码 &apos;%1&apos;（%2）能广播到得分（%3）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1125"/>
        <source>the mask Add does not add k * (1 - mask) with a large negative k</source>
        <translation>掩码 Add 加的不是带很大负数 k 的 k * (1 - mask)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1126"/>
        <source>the mask columns are not [0, total)</source>
        <translation>掩码的列不是 [0, total)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1127"/>
        <source>the mask is a float tensor not known to hold only 0 and 1 (assume_binary_mask = false)</source>
        <translation>掩码是浮点张量，无法确定只含 0 和 1（assume_binary_mask = false）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1128"/>
        <source>the mask is not sliced on both of its last two axes</source>
        <translation>掩码没有在最后两个轴上都做切片</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1129"/>
        <source>the mask is sliced on axis %1 or twice on one axis</source>
        <translation>掩码在轴 %1 上切片，或在同一轴上切了两次</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1130"/>
        <source>the mask rows are not [total - sequence, total) (the current positions)</source>
        <translation>掩码的行不是 [total - sequence, total)（当前位置）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1131"/>
        <source>the mask slice axes are not constant</source>
        <translation>掩码切片的 axes 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1132"/>
        <source>the mask slice bounds and axes differ in length</source>
        <translation>掩码切片的边界与 axes 长度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1133"/>
        <source>the mask slice bounds are not shape arithmetic PassLab can follow</source>
        <translation>掩码切片的边界不是 PassLab 能跟踪的形状运算</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1134"/>
        <source>the mask slice has a step other than 1</source>
        <translation>掩码切片的步长不为 1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1135"/>
        <source>the mask slice is not of a rank-4 tensor</source>
        <translation>掩码切片的对象不是秩为 4 的张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1136"/>
        <source>the mask slice steps are not constant</source>
        <translation>掩码切片的 steps 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1137"/>
        <source>the masked product does not multiply by the same mask</source>
        <translation>带掩码的乘积没有乘以同一个掩码</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1138"/>
        <source>the merging Reshape does not give [B, S, N*H] (%1)</source>
        <translation>合并用的 Reshape 得到的不是 [B, S, N*H]（%1）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1139"/>
        <source>the model already imports opset %1</source>
        <translation>模型已导入算子集 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1141"/>
        <source>the model has no input named &apos;%1&apos;</source>
        <translation>模型没有名为 &apos;%1&apos; 的输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1142"/>
        <source>the multiplicative mask &apos;%1&apos; is not float32</source>
        <translation>乘性掩码 &apos;%1&apos; 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1143"/>
        <source>the node is in the node block list</source>
        <translation>该节点在节点屏蔽列表中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1144"/>
        <source>the normalized dims are not static</source>
        <translation>归一化的维度不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1146"/>
        <source>the operand is not a constant scalar</source>
        <translation>操作数不是常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1147"/>
        <source>the operands&apos; ranks differ or are unknown</source>
        <translation>各操作数的秩不同或未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1148"/>
        <source>the optimized model does not run: %1</source>
        <translation>优化后的模型无法运行：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1149"/>
        <source>the optimized model has no node named &apos;%1&apos;</source>
        <translation>优化后的模型中没有名为 &apos;%1&apos; 的节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1150"/>
        <source>the original nodes of &apos;%1&apos;</source>
        <translation>&apos;%1&apos; 的原始节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1152"/>
        <source>the other input of %1 comes from %2, which this pass does not trace back</source>
        <translation>%1 的另一个输入来自 %2，此遍不向上追溯它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1153"/>
        <source>the other input of %1 is &apos;%2&apos;, not computed by a layer</source>
        <translation>%1 的另一个输入是 &apos;%2&apos;，不是由某个层计算的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1154"/>
        <source>the output %1 is not known to equal the input %2</source>
        <translation>无法确定输出 %1 等于输入 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1155"/>
        <source>the output is not [batch, i, k] (a transposed output)</source>
        <translation>输出不是 [batch, i, k]（转置的输出）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1156"/>
        <source>the output scale is not one value</source>
        <translation>输出缩放因子不是单个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1157"/>
        <source>the output type differs from the input&apos;s</source>
        <translation>输出类型与输入的不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1158"/>
        <source>the pads are not constant</source>
        <translation>pads 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1160"/>
        <source>the pass catalog has no array &apos;passes&apos;</source>
        <translation>Pass 目录中没有数组 &apos;passes&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1161"/>
        <source>the pass catalog is not valid JSON</source>
        <translation>Pass 目录不是有效的 JSON</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1162"/>
        <source>the pass catalog lists &apos;%1&apos; twice</source>
        <translation>Pass 目录两次列出了 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1164"/>
        <source>the perm is unknown</source>
        <translation>perm 未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1165"/>
        <source>the perms compose to %1, not the identity (one Transpose would do: a fusion)</source>
        <translation>两个 perm 复合为 %1，不是恒等排列（一个 Transpose 即可：属于融合）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1166"/>
        <source>the perms compose to the identity (an inverse pair: eliminate_inverse_pairs)</source>
        <translation>两个 perm 复合为恒等排列（互逆对：eliminate_inverse_pairs）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1167"/>
        <source>the perms have different lengths</source>
        <translation>这些 perm 长度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1168"/>
        <source>the perms have different ranks</source>
        <translation>这些 perm 的秩不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1171"/>
        <source>the present Concat does not stack two Unsqueeze(.., 0)</source>
        <translation>present 的 Concat 拼接的不是两个 Unsqueeze(.., 0)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1172"/>
        <source>the present does not stack %1 as [B, N, T, H]</source>
        <translation>present 没有把 %1 堆叠为 [B, N, T, H]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1173"/>
        <source>the probabilities are a graph output</source>
        <translation>概率是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1174"/>
        <source>the probabilities are not multiplied by V in one MatMul</source>
        <translation>概率没有在一个 MatMul 中与 V 相乘</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1175"/>
        <source>the probabilities are not the left operand of a MatMul</source>
        <translation>概率不是某个 MatMul 的左操作数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1176"/>
        <source>the probabilities have %1 consumers (or one in a subgraph), not one MatMul</source>
        <translation>概率有 %1 个使用者（或有一个在子图中），而不是一个 MatMul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1177"/>
        <source>the product already has a bias and &apos;%1&apos; does not have its shape (a residual)</source>
        <translation>乘积已有偏置，而 &apos;%1&apos; 的形状与之不同（是残差）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1178"/>
        <source>the projection Add is not a bias: %1</source>
        <translation>投影的 Add 不是偏置：%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1179"/>
        <source>the projection Gemm bias is not a constant [cols] vector</source>
        <translation>投影 Gemm 的偏置不是常量 [cols] 向量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1180"/>
        <source>the projection Gemm is not x · W + b on the flattened [B*S, Din] input</source>
        <translation>投影 Gemm 不是作用在展平的 [B*S, Din] 输入上的 x · W + b</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1181"/>
        <source>the projection MatMul does not multiply a [B, S, Din] input by constant 2-D weights</source>
        <translation>投影 MatMul 不是 [B, S, Din] 输入乘以常量二维权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1182"/>
        <source>the projection bias cannot be sliced</source>
        <translation>无法对投影偏置切片</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1183"/>
        <source>the projection weights cannot be sliced</source>
        <translation>无法对投影权重切片</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1184"/>
        <source>the projection weights cannot be transposed</source>
        <translation>无法转置投影权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1185"/>
        <source>the rank of the %1 result is unknown</source>
        <translation>%1 结果的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1186"/>
        <source>the rank of the Pad result is unknown</source>
        <translation>Pad 结果的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1187"/>
        <source>the rank of the Shape input is unknown</source>
        <translation>Shape 输入的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1188"/>
        <source>the rank of the input is unknown</source>
        <translation>输入的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1190"/>
        <source>the rank of the reduced tensor is unknown</source>
        <translation>被归约张量的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1191"/>
        <source>the rank of the sliced tensor is unknown</source>
        <translation>被切片张量的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1192"/>
        <source>the rank of x is unknown</source>
        <translation>x 的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1193"/>
        <source>the recipe has no &quot;passes&quot; list</source>
        <translation>配方没有 &quot;passes&quot; 列表</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1194"/>
        <source>the recipe is not valid JSON</source>
        <translation>配方不是有效的 JSON</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1195"/>
        <source>the recipe names an unknown pass &apos;%1&apos;</source>
        <translation>配方中有未知的优化遍 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1199"/>
        <source>the reciprocal of %1 is not finite and nonzero in %2</source>
        <translation>%1 的倒数在 %2 中不是有限的非零值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1200"/>
        <source>the reduced axes are not valid for the input rank</source>
        <translation>被归约的轴对输入的秩无效</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1201"/>
        <source>the residual &apos;%1&apos; is not float32</source>
        <translation>残差 &apos;%1&apos; 不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1203"/>
        <source>the result %1 is not known to equal the original %2</source>
        <translation>无法确定结果 %1 等于原来的 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1204"/>
        <source>the result does not have x&apos;s type and shape (a constant broadcasts it, or a shape is unknown)</source>
        <translation>结果的类型和形状与 x 不同（常量使其广播，或某个形状未知）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1205"/>
        <source>the result does not have x&apos;s type and shape (gamma or beta broadcasts it)</source>
        <translation>结果的类型和形状与 x 不同（gamma 或 beta 使其广播）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1206"/>
        <source>the result feeds %1, which a Conv cannot absorb (only BatchNormalization, per-channel Mul/Add)</source>
        <translation>结果输入 %1，Conv 无法吸收它（只能吸收 BatchNormalization 和逐通道的 Mul/Add）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1207"/>
        <source>the result feeds no foldable op</source>
        <translation>结果没有输入任何可折叠的算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1208"/>
        <source>the result has %1 dims that are not static numbers</source>
        <translation>结果有 %1 个维度不是静态数值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1209"/>
        <source>the result is not float32</source>
        <translation>结果不是 float32</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1210"/>
        <source>the result is unused</source>
        <translation>结果未被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1211"/>
        <source>the result is used inside a subgraph</source>
        <translation>结果在子图内被使用</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1212"/>
        <source>the result shape is unknown</source>
        <translation>结果形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1213"/>
        <source>the result type is not x&apos;s</source>
        <translation>结果类型不是 x 的类型</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1214"/>
        <source>the result would take %1, more than the budget max(%2, %3 x %4 of constant inputs); raise size_budget_bytes or max_growth to fold it</source>
        <translation>结果将占用 %1，超出预算 max(%2, %3 x %4 的常量输入)；提高 size_budget_bytes 或 max_growth 即可折叠</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1215"/>
        <source>the result&apos;s shape is unknown</source>
        <translation>结果的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1217"/>
        <source>the roof GEMM size must be at least 16</source>
        <translation>峰值 GEMM 的尺寸至少为 16</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1218"/>
        <source>the roof triad needs 1024 elements</source>
        <translation>带宽 triad 需要 1024 个元素</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1221"/>
        <source>the scalar&apos;s broadcast widens x</source>
        <translation>标量的广播会扩宽 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1222"/>
        <source>the scale %1 is not a power of two, so the sum would round differently (option allow_rounding=true allows it)</source>
        <translation>缩放 %1 不是 2 的幂，求和的舍入会不同（选项 allow_rounding=true 允许这样做）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1223"/>
        <source>the scale is not Reciprocal(...) * constant gamma</source>
        <translation>缩放不是 Reciprocal(...) * 常量 gamma</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1226"/>
        <source>the scale&apos;s rank is unknown</source>
        <translation>scale 的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1230"/>
        <source>the scores &apos;%1&apos; come from %2, not a scale, a mask or the Q·Kᵀ MatMul (in that order)</source>
        <translation>得分 &apos;%1&apos; 来自 %2，而不是缩放、掩码或 Q·Kᵀ 的 MatMul（按此顺序）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1231"/>
        <source>the scores &apos;%1&apos; do not come from a MatMul of Q and Kᵀ</source>
        <translation>得分 &apos;%1&apos; 不是来自 Q 与 Kᵀ 的 MatMul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1232"/>
        <source>the scores are divided by something other than a scalar constant</source>
        <translation>得分除以的不是标量常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1233"/>
        <source>the scores are not a MatMul of Q and Kᵀ</source>
        <translation>得分不是 Q 与 Kᵀ 的 MatMul</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1234"/>
        <source>the scores are read by a Shape node and Q&apos;s leading dims (%1) are not the scores&apos; (%2)</source>
        <translation>得分被 Shape 节点读取，且 Q 的前导维度（%1）与得分的（%2）不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1235"/>
        <source>the second perm differs in rank</source>
        <translation>第二个 perm 的秩不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1236"/>
        <source>the sequence lengths of the scores are unknown</source>
        <translation>得分的序列长度未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1237"/>
        <source>the shape is %1, the original&apos;s %2</source>
        <translation>形状为 %1，原模型为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1238"/>
        <source>the shape is already a constant</source>
        <translation>形状已经是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1239"/>
        <source>the shape is not a Concat of dims</source>
        <translation>形状不是由各维度 Concat 而成</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1240"/>
        <source>the shape needs a -1 (%1) and %2 may be 0 at run time, which would leave the -1 undetermined (option assume_nonempty)</source>
        <translation>形状需要一个 -1（%1），而 %2 运行时可能为 0，这会使 -1 无法确定（选项 assume_nonempty）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1242"/>
        <source>the shapes around the Transpose are not static</source>
        <translation>Transpose 前后的形状不是静态的</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1243"/>
        <source>the shift amount is not a constant scalar</source>
        <translation>移位量不是常量标量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1244"/>
        <source>the shift&apos;s broadcast widens x</source>
        <translation>移位的广播会扩宽 x</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1245"/>
        <source>the shifted input &apos;%1&apos; is read elsewhere</source>
        <translation>平移后的输入 &apos;%1&apos; 在别处还被读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1246"/>
        <source>the shuffled tensor is a graph output</source>
        <translation>重排后的张量是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1247"/>
        <source>the sliced axis has no static size</source>
        <translation>被切片的轴没有静态大小</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1248"/>
        <source>the sliced projection has no static last axis</source>
        <translation>被切片的投影没有静态的最后一个轴</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1249"/>
        <source>the source type is not float16, bfloat16 or float</source>
        <translation>源类型不是 float16、bfloat16 或 float</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1250"/>
        <source>the source type is unknown</source>
        <translation>源类型未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1251"/>
        <source>the spatial dims are unknown</source>
        <translation>空间维度未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1252"/>
        <source>the squared value is not Sub(x, mean)</source>
        <translation>被平方的值不是 Sub(x, mean)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1253"/>
        <source>the statistics have different lengths</source>
        <translation>各统计量长度不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1256"/>
        <source>the sum is not [batch, sequence, hidden]</source>
        <translation>求和结果不是 [batch, sequence, hidden]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1257"/>
        <source>the target copies dim %1, which the skipped op changes</source>
        <translation>目标形状复制了维度 %1，而被跳过的算子会改变它</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1258"/>
        <source>the target shape is not constant (a 0 in it would copy a dim)</source>
        <translation>目标形状不是常量（其中的 0 会复制维度）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1264"/>
        <source>the type is %1, the original&apos;s %2</source>
        <translation>类型为 %1，原模型为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1265"/>
        <source>the type of &apos;%1&apos; is not known; cannot cut the nodes out</source>
        <translation>&apos;%1&apos; 的类型未知；无法切出这些节点</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1266"/>
        <source>the types differ</source>
        <translation>类型不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1267"/>
        <source>the value is missing</source>
        <translation>值缺失</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1268"/>
        <source>the values differ (an exact type)</source>
        <translation>数值不同（精确类型）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1269"/>
        <source>the variance ReduceMean does not reduce the same axes as the mean</source>
        <translation>方差的 ReduceMean 与均值归约的轴不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1270"/>
        <source>the variance is not the mean of a square (Pow(d, 2) or Mul(d, d))</source>
        <translation>方差不是平方的均值（Pow(d, 2) 或 Mul(d, d)）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1271"/>
        <source>the weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1272"/>
        <source>the weight has %1 elements, fewer than min_weights</source>
        <translation>权重只有 %1 个元素，少于 min_weights</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1273"/>
        <source>the weight is %1, not [M, C/group, k...]</source>
        <translation>权重为 %1，而不是 [M, C/group, k...]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1275"/>
        <source>the weight is %1, not a float32 filter</source>
        <translation>权重为 %1，不是 float32 卷积核</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1276"/>
        <source>the weight is %1, not a float32 matrix</source>
        <translation>权重为 %1，不是 float32 矩阵</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1278"/>
        <source>the weight is not a 2-D float constant</source>
        <translation>权重不是二维浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1279"/>
        <source>the weight is not a constant initializer</source>
        <translation>权重不是常量初始值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1280"/>
        <source>the weight is not a depthwise 4-D float constant</source>
        <translation>权重不是逐深度的四维浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1285"/>
        <source>the weight&apos;s inner dim</source>
        <translation>权重的内维度</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1286"/>
        <source>the weight&apos;s input channels</source>
        <translation>权重的输入通道数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1287"/>
        <source>the weight&apos;s rows</source>
        <translation>权重的行数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1288"/>
        <source>the weight&apos;s scales are not per output channel (axis 0)</source>
        <translation>权重的缩放因子不是按输出通道（axis 0）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1290"/>
        <source>the weights are not all 1/%1</source>
        <translation>权重不全为 1/%1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1296"/>
        <source>this pipeline has no calibration data</source>
        <translation>此流水线没有校准数据</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1297"/>
        <source>threads cannot be negative</source>
        <translation>线程数不能为负</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1298"/>
        <source>top-1 agreement</source>
        <translation>top-1 一致率</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1300"/>
        <source>training_mode is not a constant false</source>
        <translation>training_mode 不是常量 false</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1301"/>
        <source>two Slices of the same range are both graph outputs</source>
        <translation>两个相同范围的 Slice 都是图输出</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1302"/>
        <source>two causal masks</source>
        <translation>两个因果掩码</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1303"/>
        <source>two masks</source>
        <translation>两个掩码</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1304"/>
        <source>two non-constant operands would each need a Slice (more nodes)</source>
        <translation>两个非常量操作数各需要一个 Slice（节点更多）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1305"/>
        <source>uniform in [%1, %2)</source>
        <translation>[%1, %2) 上的均匀分布</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1306"/>
        <source>uniform in [-1, 1)</source>
        <translation>[-1, 1) 上的均匀分布</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1313"/>
        <source>unknown level &apos;%1&apos; (known: %2)</source>
        <translation>未知的级别 &apos;%1&apos;（已知：%2）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1314"/>
        <source>unknown pass &apos;%1&apos;</source>
        <translation>未知的优化遍 &apos;%1&apos;</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1315"/>
        <source>value %1</source>
        <translation>值 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1317"/>
        <source>value renamed</source>
        <translation>值已改名</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1318"/>
        <source>values differ</source>
        <translation>数值不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1319"/>
        <source>values for %1 inputs must come from a file</source>
        <translation>%1 输入的值必须来自文件</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1320"/>
        <source>values of their subgraph have the names of other values of the model: calibration cannot tell them apart</source>
        <translation>其子图中的值与模型中其他值同名：校准无法区分它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1321"/>
        <source>warm-up runs cannot be negative</source>
        <translation>预热次数不能为负</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1323"/>
        <source>weights in the full int8 range (reduce_range=auto): %1 has %2 (exact int8 dot products); reduce_range=true for 7 bits ([-64, 64]), the file for CPUs without VNNI</source>
        <translation>权重使用完整的 int8 范围（reduce_range=auto）：%1 具有 %2（精确的 int8 点积）；reduce_range=true 可改为 7 位（[-64, 64]），即适用于无 VNNI 的 CPU 的文件</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1324"/>
        <source>with noop_with_empty_axes the reference still applies %1&apos;s per-element transform (abs, square, log)</source>
        <translation>设置 noop_with_empty_axes 时，参考实现仍会执行 %1 的逐元素变换（abs、square、log）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1327"/>
        <source>x / sqrt(2)</source>
        <translation>x / sqrt(2)</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1329"/>
        <source>x and the statistics have different types</source>
        <translation>x 与统计量的类型不同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1330"/>
        <source>x has no static shape</source>
        <translation>x 没有静态形状</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1332"/>
        <source>x is not 1x1 in its spatial dims</source>
        <translation>x 的空间维度不是 1x1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1333"/>
        <source>x is not [N, C, H, W] with the MatMul&apos;s C</source>
        <translation>x 不是具有 MatMul 的 C 的 [N, C, H, W]</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1334"/>
        <source>x is not a 4-D tensor of static shape</source>
        <translation>x 不是静态形状的四维张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1335"/>
        <source>x is not a float tensor</source>
        <translation>x 不是浮点张量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1336"/>
        <source>x is not known to have rank &gt;= 2</source>
        <translation>无法确定 x 的秩 &gt;= 2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1337"/>
        <source>x is not known to have rank &gt;= 3</source>
        <translation>无法确定 x 的秩 &gt;= 3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1338"/>
        <source>x is of an unsupported type</source>
        <translation>x 的类型不受支持</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1339"/>
        <source>x&apos;s scale is not one value</source>
        <translation>x 的缩放因子不是单个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1340"/>
        <source>x&apos;s shape is unknown</source>
        <translation>x 的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="546"/>
        <source>convert_to_blocked_layout: block %1 is not 0 (this CPU&apos;s), 8 or 16</source>
        <translation>convert_to_blocked_layout：block %1 不是 0（本机 CPU 的取值）、8 或 16</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="656"/>
        <source>layout: PassLab blocked activations</source>
        <translation>布局：PassLab 分块激活</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="105"/>
        <source>%1 nodes in the blocked layout (block %2), %3 reorders in, %4 out</source>
        <translation>%1 个节点采用分块布局（块大小 %2），%3 个转入重排，%4 个转出重排</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="712"/>
        <source>not a 2-D float32 convolution with known channel counts</source>
        <translation>不是通道数已知的二维 float32 卷积</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1202"/>
        <source>the residual&apos;s shape is unknown</source>
        <translation>残差的形状未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="638"/>
        <source>its input is not in the blocked layout</source>
        <translation>其输入不是分块布局</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="366"/>
        <source>MaxPool&apos;s Indices output is read</source>
        <translation>MaxPool 的 Indices 输出被读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="643"/>
        <source>its operands do not have equal shapes</source>
        <translation>其操作数形状不相同</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="433"/>
        <source>a Div by a blocked or per-channel divisor would divide the padding channels by zero</source>
        <translation>除数为分块张量或逐通道值的 Div 会让填充通道除以零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="248"/>
        <source>&apos;%1&apos; is neither a scalar nor one value per channel of &apos;%2&apos;</source>
        <translation>“%1”既不是标量，也不是“%2”每个通道一个值</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="476"/>
        <source>a training output of the BatchNormalization is read</source>
        <translation>BatchNormalization 的训练输出被读取</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="597"/>
        <source>input &apos;%1&apos; has %2 channels, not a multiple of the block %3</source>
        <translation>输入“%1”有 %2 个通道，不是块大小 %3 的倍数</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="201"/>
        <source>%1: sparsity %2 is not a fraction between 0 and 1</source>
        <translation>%1：sparsity %2 不是 0 到 1 之间的比例</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="485"/>
        <source>all %1 output channels are zero: the layer is a constant, not pruned here</source>
        <translation>全部 %1 个输出通道都为零：该层是常量，此处不删除</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="532"/>
        <source>channel %1 is %2 after %3</source>
        <translation>通道 %1 在 %3 之后为 %2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="551"/>
        <source>depthwise %1 pads its input, so channel %2 (constant %3) is not constant after it</source>
        <translation>深度卷积 %1 对输入做填充，因此通道 %2（常量 %3）在它之后不再是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="731"/>
        <source>not pruned: %1 weights, fewer than min_weights</source>
        <translation>未剪枝：%1 个权重，少于 min_weights</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="732"/>
        <source>not pruned: cannot read the weight %1</source>
        <translation>未剪枝：无法读取权重 %1</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="735"/>
        <source>not pruned: the node is in node_block_list</source>
        <translation>未剪枝：该节点在 node_block_list 中</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="736"/>
        <source>not pruned: the weight %1 is not a layer&apos;s weight</source>
        <translation>未剪枝：权重 %1 不是层的权重</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="737"/>
        <source>not pruned: the weight is not a floating-point constant stored in the file</source>
        <translation>未剪枝：权重不是存储在文件中的浮点常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="738"/>
        <source>not pruned: the weights it would zero are zero already (%1% zero)</source>
        <translation>未剪枝：要置零的权重已经为零（%1% 为零）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="791"/>
        <source>precision: sparsity</source>
        <translation>精度：稀疏化</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="795"/>
        <source>pruned: %1 of %2 weights set to zero, %3% of the weight zero now</source>
        <translation>已剪枝：%2 个权重中 %1 个置零，该权重现有 %3% 为零</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="882"/>
        <source>the C of %1 cannot take channel %2&apos;s constant %3</source>
        <translation>%1 的 C 无法吸收通道 %2 的常量 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1006"/>
        <source>the bias is not a stored constant with one value per channel</source>
        <translation>偏置不是每通道一个值的存储常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1008"/>
        <source>the bias of %1 is not a stored constant</source>
        <translation>%1 的偏置不是存储的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1120"/>
        <source>the layer&apos;s output has rank 0</source>
        <translation>该层的输出秩为 0</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1159"/>
        <source>the parameters of %1 are not constant</source>
        <translation>%1 的参数不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1189"/>
        <source>the rank of the layer&apos;s output is not known</source>
        <translation>该层输出的秩未知</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1254"/>
        <source>the statistics of %1 are not constant</source>
        <translation>%1 的统计量不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1282"/>
        <source>the weight of %1 is not a stored constant</source>
        <translation>%1 的权重不是存储的常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1283"/>
        <source>the weight of %1 is not a stored matrix</source>
        <translation>%1 的权重不是存储的矩阵</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="1293"/>
        <source>they reach the graph output &apos;%1&apos;</source>
        <translation>它们到达了图输出“%1”</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="42"/>
        <source>%1 channels removed from %2 layers, %3 weights fewer</source>
        <translation>从 %2 个层中删除了 %1 个通道，权重减少 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="44"/>
        <source>%1 dead channels stay: %2</source>
        <translation>%1 个死通道保留：%2</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="53"/>
        <source>%1 has %2 input channels, not %3</source>
        <translation>%1 有 %2 个输入通道，而不是 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="56"/>
        <source>%1 has K = %2, not %3</source>
        <translation>%1 的 K = %2，而不是 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="63"/>
        <source>%1 has extra inputs</source>
        <translation>%1 有多余的输入</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="67"/>
        <source>%1 has no bias to take channel %2&apos;s constant %3</source>
        <translation>%1 没有偏置来吸收通道 %2 的常量 %3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="80"/>
        <source>%1 is excluded from this pass</source>
        <translation>%1 被排除在此优化遍之外</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="99"/>
        <source>%1 layers pruned (%2): %3 weights set to zero, %4% of their %5 weights zero now (each layer in the explain log)</source>
        <translation>剪枝了 %1 个层（%2）：%3 个权重置零，它们的 %5 个权重中现有 %4% 为零（每层详情见解释日志）</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="107"/>
        <source>%1 normalizes a value whose channels are not axis 1</source>
        <translation>%1 归一化的值的通道不在轴 1 上</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="109"/>
        <source>%1 of %2 dead channels removed; the others stay: %3</source>
        <translation>删除了 %2 个死通道中的 %1 个；其余保留：%3</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="121"/>
        <source>%1 pads channel %2 (constant %3) with %4: no longer constant</source>
        <translation>%1 用 %4 填充通道 %2（常量 %3）：不再是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="123"/>
        <source>%1 pads its input: channel %2 holds %3, and folding %3 * sum(w) into the bias would be wrong where the window reads padding</source>
        <translation>%1 对输入做填充：通道 %2 的值为 %3，把 %3 * sum(w) 折叠进偏置在窗口读到填充的位置会出错</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="124"/>
        <source>%1 pads the channel axis, or its pads are not constant</source>
        <translation>%1 在通道轴上填充，或其 pads 不是常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="125"/>
        <source>%1 pads them in mode %2</source>
        <translation>%1 以 %2 模式填充它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="126"/>
        <source>%1 pools a value whose channels are not axis 1</source>
        <translation>%1 池化的值的通道不在轴 1 上</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="132"/>
        <source>%1 reads them on an axis other than its K</source>
        <translation>%1 在其 K 以外的轴上读取它们</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="135"/>
        <source>%1 reads them with an operand that is not a per-channel constant</source>
        <translation>%1 读取它们时的另一个操作数不是逐通道常量</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="136"/>
        <source>%1 reads them, an op this pass does not follow</source>
        <translation>%1 读取它们，此优化遍不追踪该算子</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="150"/>
        <source>%1 transposes A</source>
        <translation>%1 转置了 A</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="198"/>
        <source>%1: pattern &apos;%2&apos; is not unstructured, 2:4 or channel</source>
        <translation>%1：pattern“%2”不是 unstructured、2:4 或 channel</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="645"/>
        <source>its program has %1, which may turn the padding channels&apos; values into infinities or NaN</source>
        <translation>其程序含有 %1，可能把填充通道的值变为无穷大或 NaN</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="453"/>
        <source>a convolution between NCHW ops (no blocked input, no reader that could stay blocked): two reorders would gain nothing</source>
        <translation>位于 NCHW 运算之间的卷积（输入不是分块布局，也没有可保持分块的读取者）：两次重排得不到任何好处</translation>
    </message>
    <message>
        <location filename="../ui/i18n/core_message_catalog.cpp" line="582"/>
        <source>grouped convolution (group %1) whose groups are not whole blocks of %2 channels: oneDNN has no blocked kernel for it</source>
        <translation>分组卷积（group %1）的每组通道数不是 %2 的整数倍：oneDNN 没有对应的分块内核</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="154"/>
        <source>PassLab: a workbench for optimizing ONNX inference graphs</source>
        <translation>PassLab：ONNX 推理图优化工作台</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="160"/>
        <source>ONNX model or text-format file to open (default: a bundled demo)</source>
        <translation>要打开的 ONNX 模型或文本格式文件（默认：内置示例）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="165"/>
        <source>Interface language for this run (en, zh_CN)</source>
        <translation>本次运行的界面语言（en、zh_CN）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="169"/>
        <source>Find this text and select the first match</source>
        <translation>查找此文本并选中第一个匹配项</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="173"/>
        <source>Save a picture of the window once the graph is drawn, then quit</source>
        <translation>计算图绘制完成后保存窗口截图，然后退出</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="178"/>
        <source>After opening, apply passes: a number of Steps, or &quot;all&quot; for Run All</source>
        <translation>打开后运行优化遍：给出步数，或用 &quot;all&quot; 全部运行</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="183"/>
        <source>After the passes, show what Step N changed (1 is the first)</source>
        <translation>运行后显示第 N 步的改动（第一步为 1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="188"/>
        <source>After the passes, show what the last Step of this pass changed</source>
        <translation>运行后显示该优化遍最后一步的改动</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="193"/>
        <source>After the passes, select in the main graph a node this pass made</source>
        <translation>运行后在主图中选中该优化遍生成的一个节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="197"/>
        <source>After the passes, show the main graph rather than the Step</source>
        <translation>运行后显示主图而不是该步的改动</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="201"/>
        <source>After the passes, profile the model (&quot;profile&quot;) or compare it with the original (&quot;compare&quot;) with the heat overlay on</source>
        <translation>优化遍运行之后，对模型进行性能分析（“profile”）或与原模型比较（“compare”），并打开热度叠加</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="207"/>
        <source>What the Profile panel shows beside its table: chart or roofline</source>
        <translation>性能分析面板在表格旁显示的内容：chart（图表）或 roofline（屋顶线）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="212"/>
        <source>Where --profile runs: cpu (the default) or a listed device such as cuda:0</source>
        <translation>--profile 在何处运行：cpu（默认）或列出的设备，例如 cuda:0</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="217"/>
        <source>Open this lesson (its folder name) instead of a model</source>
        <translation>打开这个课程（用其文件夹名）而不是模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="221"/>
        <source>In the lesson, pick these nodes (comma-separated names) as the prediction</source>
        <translation>在课程中选中这些节点（名称以逗号分隔）作为预测</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="226"/>
        <source>Show the Memory panel large (the shown Step before and after)</source>
        <translation>放大显示“内存”面板（所示步骤之前与之后）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/application.cpp" line="230"/>
        <source>Show the Precision panel large and run FP16 mixed precision for this least SNR (dB), then calibrate</source>
        <translation>放大显示“精度”面板，以此最低信噪比（dB）运行 FP16 混合精度，然后校准</translation>
    </message>
</context>
<context>
    <name>passlab::ui::AttributeModel</name>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="154"/>
        <source>Double-click to edit; edits can be undone.</source>
        <translation>双击可编辑；编辑可以撤销。</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="164"/>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="166"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/attribute_model.cpp" line="168"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>passlab::ui::BudgetEditor</name>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="113"/>
        <source>SNR ≥ </source>
        <translation>SNR ≥ </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="114"/>
        <source> dB</source>
        <translation> dB</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="115"/>
        <source>cosine ≥ </source>
        <translation>余弦 ≥ </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="116"/>
        <source>max rel ≤</source>
        <translation>最大相对误差 ≤</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="117"/>
        <location filename="../ui/pipeline/budget_editor.cpp" line="119"/>
        <location filename="../ui/pipeline/budget_editor.cpp" line="124"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="118"/>
        <source>top-1 ≥ </source>
        <translation>top-1 ≥ </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="120"/>
        <source>top-1: not limited</source>
        <translation>top-1：不限制</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="122"/>
        <source>k = </source>
        <translation>k = </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="123"/>
        <source>top-%1 ≥ </source>
        <translation>top-%1 ≥ </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="125"/>
        <source>top-%1: not limited</source>
        <translation>top-%1：不限制</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="129"/>
        <source>The least signal-to-noise ratio of each output.</source>
        <translation>每个输出的最低信噪比。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="130"/>
        <source>The least cosine similarity of each output.</source>
        <translation>每个输出的最低余弦相似度。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="132"/>
        <source>The largest error of an output relative to its largest magnitude. Off: reported, not limited.</source>
        <translation>输出相对于其最大幅值的最大误差。关闭：只报告，不限制。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="137"/>
        <source>For classifier outputs: the least share of rows whose top-1 class stays the same. 0: reported, not limited.</source>
        <translation>用于分类器输出：top-1 类别保持不变的行的最低比例。0：只报告，不限制。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="140"/>
        <source>For classifier outputs with more than k classes: the least share of rows whose original top-1 class is among the output&apos;s k largest. 0: reported, not limited.</source>
        <translation>适用于类别数多于 k 的分类器输出：原 top-1 类别位于输出最大的 k 个之中的行所占的最小比例。0：只报告，不限制。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/budget_editor.cpp" line="143"/>
        <source>The k of the top-k agreement, limited and reported.</source>
        <translation>top-k 一致率中的 k，用于限制和报告。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::DiffPanel</name>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="107"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="108"/>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="112"/>
        <source>Overlay</source>
        <translation>叠加</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="113"/>
        <source>The graph after the Step, with the removed nodes drawn in</source>
        <translation>显示该步之后的图，并画出被删除的节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="114"/>
        <source>Side by Side</source>
        <translation>并排</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="115"/>
        <source>Before and after the Step, scrolled and zoomed together</source>
        <translation>该步之前与之后并排显示，同步滚动和缩放</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="116"/>
        <source>Show Changes</source>
        <translation>显示改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="117"/>
        <source>Open the groups holding the changes and fit them into view</source>
        <translation>展开包含改动的分组并使其适合视图</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="119"/>
        <source>%1 added  %2 removed  %3 rewired or rewritten</source>
        <translation>%1 新增  %2 删除  %3 重连或改写</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="121"/>
        <source>About the Pass</source>
        <translation>关于该 Pass</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="122"/>
        <source>What this Step&apos;s pass does, when it applies, and its lesson</source>
        <translation>此步骤的 Pass 做什么、何时适用，以及它的课程</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="124"/>
        <location filename="../ui/pipeline/diff_panel.cpp" line="186"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="125"/>
        <location filename="../ui/pipeline/diff_panel.cpp" line="188"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="127"/>
        <source>Choose a Step in the Timeline to see what it changed.</source>
        <translation>在时间线中选择一步以查看它的改动。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="131"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="133"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="134"/>
        <source>%1 removed, %2 added, %3 rewired, %4 rewritten</source>
        <translation>删除 %1，新增 %2，重连 %3，改写 %4</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/diff_panel.cpp" line="142"/>
        <source>%1 → %2 nodes</source>
        <translation>%1 → %2 个节点</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphPanel</name>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="194"/>
        <source>Graphviz</source>
        <translation>Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="194"/>
        <source>built-in layered layout</source>
        <translation>内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="195"/>
        <source>%1 boxes laid out by %2 in %3 s</source>
        <translation>%1 个方框由%2布局，用时 %3 秒</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="207"/>
        <source>too many boxes for Graphviz</source>
        <translation>方框过多，未交给 Graphviz</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="210"/>
        <source>the layout helper passlab-layout was not found</source>
        <translation>未找到布局辅助程序 passlab-layout</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="213"/>
        <source>Graphviz failed (%1)</source>
        <translation>Graphviz 失败（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="217"/>
        <source>Graphviz took longer than %1 s and was stopped</source>
        <translation>Graphviz 用时超过 %1 秒，已被终止</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="220"/>
        <source>Graphviz layout cancelled</source>
        <translation>已取消 Graphviz 布局</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="223"/>
        <source>Graphviz answered with something unreadable (%1)</source>
        <translation>Graphviz 返回了无法解析的结果（%1）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="415"/>
        <source>Expand Group</source>
        <translation>展开分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="428"/>
        <source>Collapse Group “%1”</source>
        <translation>折叠分组“%1”</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="433"/>
        <source>Collapse Group</source>
        <translation>折叠分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="437"/>
        <source>Expand All Groups</source>
        <translation>展开全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="438"/>
        <source>Collapse All Groups</source>
        <translation>折叠全部分组</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="419"/>
        <source>Open Bodies in Tabs</source>
        <translation>在标签页中打开子图</translation>
    </message>
    <message>
        <location filename="../ui/graphview/graph_panel.cpp" line="441"/>
        <source>Fit to Window</source>
        <translation>适应窗口</translation>
    </message>
</context>
<context>
    <name>passlab::ui::GraphTabs</name>
    <message>
        <location filename="../ui/graphview/graph_tabs.cpp" line="59"/>
        <location filename="../ui/graphview/graph_tabs.cpp" line="118"/>
        <source>(no model)</source>
        <translation>（无模型）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::IoModel</name>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="84"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="84"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="97"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="99"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="101"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
</context>
<context>
    <name>passlab::ui::LessonPanel</name>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="147"/>
        <source>Completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="147"/>
        <source>Not done yet</source>
        <translation>尚未完成</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="153"/>
        <source>These lesson files did not load:</source>
        <translation>这些课程文件未能加载：</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="176"/>
        <source>Each lesson opens a small model and asks you to predict what the next pass will remove or fuse. Double-click a lesson to start.</source>
        <translation>每个课程打开一个小模型，请你预测下一个遍会删除或融合什么。双击一个课程开始。</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="178"/>
        <source>Open Lessons Folder…</source>
        <translation>打开课程文件夹…</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="179"/>
        <source>Check my prediction</source>
        <translation>检查我的预测</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="180"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="181"/>
        <source>Show the answer</source>
        <translation>显示答案</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="182"/>
        <source>Try again</source>
        <translation>再试一次</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="183"/>
        <source>Next lesson</source>
        <translation>下一课</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="184"/>
        <source>All lessons</source>
        <translation>所有课程</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="222"/>
        <source>Your prediction: no node (click nodes in the graph to pick or unpick them; checking with none picked predicts that the pass changes nothing).</source>
        <translation>你的预测：没有节点（在图中点击节点以选中或取消；不选任何节点就检查，表示预测这个遍什么也不改变）。</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="224"/>
        <source>Your prediction: %1</source>
        <translation>你的预测：%1</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="241"/>
        <source>Opening the lesson&apos;s model…</source>
        <translation>正在打开课程的模型…</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="243"/>
        <source>Running the pass…</source>
        <translation>正在运行遍…</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="250"/>
        <source>&lt;b&gt;Right!&lt;/b&gt; The pass did what you predicted.</source>
        <translation>&lt;b&gt;正确！&lt;/b&gt;这个遍做的正是你预测的。</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="251"/>
        <source>&lt;b&gt;Not quite.&lt;/b&gt; Compare your prediction with the Step view.</source>
        <translation>&lt;b&gt;不完全对。&lt;/b&gt;请把你的预测与步骤视图对照。</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="258"/>
        <source>Right: %1</source>
        <translation>正确：%1</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="259"/>
        <source>Missed (removed, not predicted): %1</source>
        <translation>遗漏（被删除，但未预测）：%1</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="260"/>
        <source>Wrong (predicted, still there): %1</source>
        <translation>错误（预测了，但仍然存在）：%1</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_panel.cpp" line="262"/>
        <source>The pass removed nothing, as you predicted.</source>
        <translation>如你所料，这个遍没有删除任何节点。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::LessonSession</name>
    <message>
        <location filename="../ui/lessons/lesson_session.cpp" line="66"/>
        <source>The pass could not start: is the lesson&apos;s model open?</source>
        <translation>遍无法开始：课程的模型打开了吗？</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_session.cpp" line="77"/>
        <source>The pass did not run.</source>
        <translation>遍没有运行。</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_session.cpp" line="80"/>
        <source>The pass failed and was rolled back: %1</source>
        <translation>遍执行失败，已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/lessons/lesson_session.cpp" line="81"/>
        <source>The pass did not apply: %1</source>
        <translation>遍不适用：%1</translation>
    </message>
</context>
<context>
    <name>passlab::ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="152"/>
        <source>Running passes…</source>
        <translation>正在运行优化遍…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="573"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="574"/>
        <source>Open &amp;Demo</source>
        <translation>打开示例(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="575"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="576"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="577"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="578"/>
        <source>&amp;Pipeline</source>
        <translation>流水线(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="376"/>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="381"/>
        <source>Run &amp;All</source>
        <translation>全部运行(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="390"/>
        <source>&amp;Reset</source>
        <translation>重置(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="386"/>
        <source>&amp;Cancel Run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="394"/>
        <source>&amp;Limit Passes to the Selection</source>
        <translation>优化遍仅作用于所选内容(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="396"/>
        <source>Passes only rewrite the selected node or the nodes of the selected group</source>
        <translation>优化遍只改写所选节点或所选分组中的节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="400"/>
        <source>E&amp;xclude the Selection from Passes</source>
        <translation>优化遍不作用于所选内容(&amp;X)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="401"/>
        <source>Passes leave the selected nodes as they are</source>
        <translation>优化遍不改动所选节点</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="405"/>
        <source>Passes on &amp;Every Node</source>
        <translation>优化遍作用于全部节点(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="443"/>
        <source>&amp;Load Recipe…</source>
        <translation>载入配方(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="447"/>
        <source>&amp;Export Recipe…</source>
        <translation>导出配方(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="451"/>
        <source>Export &amp;Report (HTML)…</source>
        <translation>导出报告(HTML)(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="580"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="268"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="272"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="277"/>
        <source>Export View as &amp;SVG…</source>
        <translation>将视图导出为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="281"/>
        <source>Export View as &amp;PNG…</source>
        <translation>将视图导出为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="285"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="297"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="301"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="305"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="309"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="313"/>
        <source>Find &amp;Previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="317"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="322"/>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="327"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="332"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="337"/>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="342"/>
        <source>&amp;Expand All Groups</source>
        <translation>展开全部分组(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="346"/>
        <source>&amp;Collapse All Groups</source>
        <translation>折叠全部分组(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="350"/>
        <source>&amp;Lay Out Again</source>
        <translation>重新布局(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="355"/>
        <source>Arrow &amp;Labels (Type and Shape)</source>
        <translation>箭头标签（类型与形状）(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="366"/>
        <source>&amp;Minimap</source>
        <translation>缩略图(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="456"/>
        <source>&amp;About PassLab</source>
        <translation>关于 PassLab(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="289"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="582"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="583"/>
        <source>Model Summary</source>
        <translation>模型概要</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="584"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="585"/>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="586"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="591"/>
        <source>&lt;opened&gt;</source>
        <translation>&lt;已打开&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="605"/>
        <source>No model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="606"/>
        <source>%1[*] — PassLab</source>
        <translation>%1[*] — PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="666"/>
        <source>Laying out %1…</source>
        <translation>正在布局 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="878"/>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="879"/>
        <source>%1 has changes that are not saved. Discard them?</source>
        <translation>%1 有未保存的更改。要放弃这些更改吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="894"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="895"/>
        <source>Models (*.onnx *.txt *.onnxtxt);;ONNX models (*.onnx);;PassLab text format (*.txt *.onnxtxt);;All files (*)</source>
        <translation>模型 (*.onnx *.txt *.onnxtxt);;ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt *.onnxtxt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="925"/>
        <source>Opening cancelled</source>
        <translation>已取消打开</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="927"/>
        <source>Cannot open the model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="921"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="953"/>
        <source>Save Model As</source>
        <translation>模型另存为</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="954"/>
        <source>ONNX model (*.onnx);;PassLab text format (*.txt)</source>
        <translation>ONNX 模型 (*.onnx);;PassLab 文本格式 (*.txt)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="959"/>
        <source>Overwrite the original?</source>
        <translation>覆盖原文件？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="960"/>
        <source>%1 is the file this model was opened from. Replace it with the current model?</source>
        <translation>%1 是打开此模型的原文件。要用当前模型替换它吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="973"/>
        <source>%1 is the file this model was opened from; it was not overwritten.</source>
        <translation>%1 是打开此模型的原文件，未被覆盖。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="974"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="937"/>
        <source>Cannot save the model</source>
        <translation>无法保存模型</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="409"/>
        <source>&amp;Profile the Model</source>
        <translation>性能分析模型(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="410"/>
        <source>Time every node of the current model (the Profile panel)</source>
        <translation>为当前模型的每个节点计时（性能分析面板）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="419"/>
        <source>Compare &amp;Timings with the Original</source>
        <translation>与原模型比较耗时(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="428"/>
        <source>&amp;Heat Overlay (Time Share)</source>
        <translation>热度叠加（耗时占比）(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="432"/>
        <source>&amp;Memory Timeline</source>
        <translation>内存时间线(&amp;M)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="433"/>
        <source>Plan the current model&apos;s memory and show it over the execution order (the Memory panel)</source>
        <translation>规划当前模型的内存，并按执行顺序显示（“内存”面板）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="460"/>
        <source>&amp;All Lessons</source>
        <translation>所有课程(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="461"/>
        <source>List the lessons in the Lessons panel</source>
        <translation>在课程面板中列出所有课程</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="469"/>
        <source>Open Lessons &amp;Folder…</source>
        <translation>打开课程文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="470"/>
        <source>Add the lessons of a folder (one subfolder per lesson, see docs/lessons.md)</source>
        <translation>添加一个文件夹中的课程（每个课程一个子文件夹，见 docs/lessons.md）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="474"/>
        <source>&amp;Check My Prediction</source>
        <translation>检查我的预测(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="475"/>
        <source>Run the lesson&apos;s pass and compare what it removed with the nodes you picked</source>
        <translation>运行课程的遍，并把它删除的节点与你选中的节点比较</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="579"/>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="587"/>
        <source>Profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="588"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="590"/>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="632"/>
        <source>%1 (done)</source>
        <translation>%1（已完成）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/mainwindow/main_window.cpp" line="778"/>
        <source>%n lesson file(s) did not load (see the Lessons panel)</source>
        <translation>
            <numerusform>%n 个课程文件未能加载（见课程面板）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="784"/>
        <source>Open Lessons Folder</source>
        <translation>打开课程文件夹</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="800"/>
        <source>Profiling…</source>
        <translation>正在进行性能分析…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="810"/>
        <source>Profiling: %1 %2 of %3</source>
        <translation>性能分析：%1 %2 / %3</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="933"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1069"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1085"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="982"/>
        <source>Not saved: the model fails the verifier</source>
        <translation>未保存：模型未通过验证器</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="986"/>
        <source>Save a model that fails the verifier?</source>
        <translation>保存未通过验证器的模型？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="988"/>
        <source>Nothing was written. A pass may have left the model invalid (run the pipeline with the numeric check, or step through it, to find which). Save it anyway?</source>
        <translation>未写入任何内容。可能是某个优化遍使模型失效（开启数值检查运行流水线，或逐步运行，以找出是哪一个）。仍要保存吗？</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1008"/>
        <source>Export View as SVG</source>
        <translation>将视图导出为 SVG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1008"/>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1013"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1024"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1064"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1082"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1013"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1064"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1082"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1020"/>
        <source>Export View as PNG</source>
        <translation>将视图导出为 PNG</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1020"/>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1024"/>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1058"/>
        <source>Cannot export the recipe</source>
        <translation>无法导出配方</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/mainwindow/main_window.cpp" line="1071"/>
        <source>Saved %1; %n rolled-back Step(s) left out, as they did not change the model: %2</source>
        <translation>
            <numerusform>已保存 %1；%n 个已回滚的步骤未写入，因为它们没有改变模型：%2</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1092"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1098"/>
        <source>Cannot load the recipe</source>
        <translation>无法载入配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1092"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1098"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1102"/>
        <source>Loaded the recipe %1</source>
        <translation>已载入配方 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1129"/>
        <location filename="../ui/mainwindow/main_window.cpp" line="1141"/>
        <source>Select a node or a group first</source>
        <translation>请先选择一个节点或分组</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1152"/>
        <source>Export Recipe</source>
        <translation>导出配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1152"/>
        <source>PassLab recipe (*.json)</source>
        <translation>PassLab 配方 (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1158"/>
        <source>Load Recipe</source>
        <translation>载入配方</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1159"/>
        <source>PassLab recipe (*.json);;All files (*)</source>
        <translation>PassLab 配方 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1169"/>
        <source>Export Report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1169"/>
        <source>HTML page (*.html)</source>
        <translation>HTML 网页 (*.html)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1192"/>
        <source>About PassLab</source>
        <translation>关于 PassLab</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="1193"/>
        <source>&lt;h3&gt;PassLab %1&lt;/h3&gt;&lt;p&gt;A workbench for optimizing ONNX inference graphs: open a model, inspect it, apply passes step by step and see what each one changed.&lt;/p&gt;&lt;p&gt;Graph layout by Graphviz (in a separate process); built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;PassLab %1&lt;/h3&gt;&lt;p&gt;ONNX 推理图优化工作台：打开模型、查看其结构、逐步应用优化遍，并查看每一步改动了什么。&lt;/p&gt;&lt;p&gt;计算图布局由 Graphviz（在独立进程中）完成；基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="589"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/main_window.cpp" line="851"/>
        <source>Measuring precision…</source>
        <translation>正在测量精度…</translation>
    </message>
</context>
<context>
    <name>passlab::ui::MemoryChart</name>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="160"/>
        <source>%1: %2 at offset %3, steps %4–%5, written by %6</source>
        <translation>%1：%2，偏移 %3，步 %4–%5，由 %6 写出</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="169"/>
        <source>A view of %1 (the same buffer)</source>
        <translation>%1 的视图（同一缓冲区）</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="174"/>
        <source>In place: takes the buffer of %1, which dies here</source>
        <translation>原地：占用 %1 的缓冲区，它在此处结束生命期</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="176"/>
        <source>A graph output: lives until the run returns</source>
        <translation>图输出：一直存活到运行返回</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="179"/>
        <source>Inside the buffer of graph output %1, at offset %2: it dies before that output is written</source>
        <translation>位于图输出 %1 的缓冲区内，偏移 %2：它在该输出被写入之前失效</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="199"/>
        <source>before: peak %1</source>
        <translation>之前：峰值 %1</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="205"/>
        <source>peak %1 at step %2 (%3)</source>
        <translation>峰值 %1，在第 %2 步（%3）</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="237"/>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="341"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="344"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="346"/>
        <source>planned peak = lower bound: %1</source>
        <translation>规划峰值 = 下界：%1</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="347"/>
        <source>peak = bound</source>
        <translation>峰值 = 下界</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="349"/>
        <source>planned peak %1</source>
        <translation>规划峰值 %1</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="349"/>
        <source>planned peak</source>
        <translation>规划峰值</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="351"/>
        <source>lower bound %1</source>
        <translation>下界 %1</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="352"/>
        <source>lower bound</source>
        <translation>下界</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="354"/>
        <source>tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="358"/>
        <source>graph outputs outside the block: %1</source>
        <translation>内存块之外的图输出：%1</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="359"/>
        <source>outputs outside</source>
        <translation>块外输出</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="361"/>
        <source>kernel scratch</source>
        <translation>内核临时空间</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="361"/>
        <source>scratch</source>
        <translation>临时空间</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="340"/>
        <source>live bytes after the Step</source>
        <translation>该步之后的活跃字节</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="150"/>
        <source>Kernel scratch of step %1 (%2): %3 at offset %4, while the step runs</source>
        <translation>第 %1 步（%2）的内核临时空间：%3，偏移 %4，在该步运行期间</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="155"/>
        <source>%1: a graph output, %2, outside the block: written where the caller gets it, from step %3 to the end of the run, written by %4</source>
        <translation>%1：图输出，%2，位于内存块之外：直接写在调用者取得它的位置，从第 %3 步到运行结束，由 %4 写入</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="340"/>
        <location filename="../ui/memory/memory_chart.cpp" line="341"/>
        <source>live bytes</source>
        <translation>活跃字节</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="344"/>
        <source>before the Step</source>
        <translation>该步之前</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_chart.cpp" line="354"/>
        <source>tensors at their offsets (click one)</source>
        <translation>按偏移排布的张量（可点击）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::MemoryPanel</name>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="118"/>
        <source>Planning the memory…</source>
        <translation>正在规划内存…</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="119"/>
        <source>No model open.</source>
        <translation>没有打开的模型。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/memory/memory_panel.cpp" line="131"/>
        <source>Peak %1 live at step %2 (%3); lower bound %4, planned peak %5 (%6×, %7); %n tensor(s) over %8 steps (in place: %9, views: %10)</source>
        <translation>
            <numerusform>第 %2 步（%3）活跃峰值 %1；下界 %4，规划峰值 %5（%6×，%7）；%n 个张量，共 %8 步（原地：%9，视图：%10）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="149"/>
        <source>Kernel scratch not planned: the run on synthesized inputs that asks for it failed: %1</source>
        <translation>未规划内核临时空间：用于获取它的合成输入运行失败：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/memory/memory_panel.cpp" line="158"/>
        <source>Graph outputs outside the block: %n (%1); with them peak %2, lower bound %3 (%4×)</source>
        <translation>
            <numerusform>内存块之外的图输出：%n 个（%1）；计入它们后峰值 %2，下界 %3（%4×）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/memory/memory_panel.cpp" line="165"/>
        <source>; %n tensor(s) placed inside their buffers (%1)</source>
        <translation>
            <numerusform>；%n 个张量放在它们的缓冲区内（%1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/memory/memory_panel.cpp" line="170"/>
        <source>Kernel scratch of %n step(s) of the run planned with the tensors (%1)</source>
        <translation>
            <numerusform>运行中 %n 步的内核临时空间与张量一起规划（%1）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="182"/>
        <source>Step %1: peak %2 → %3 live, planned peak %4 → %5, steps %6 → %7</source>
        <translation>第 %1 步：活跃峰值 %2 → %3，规划峰值 %4 → %5，步数 %6 → %7</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="191"/>
        <source>; without kernel scratch, peak %1 → %2 live</source>
        <translation>；不计内核临时空间，峰值 %1 → %2 存活</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="195"/>
        <source>Step %1: the model before it has no plan (%2)</source>
        <translation>第 %1 步：之前的模型没有内存规划（%2）</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="206"/>
        <source>The size of &apos;%1&apos; (written by %2) is known only at run time: planned from one run on synthesized inputs (%3). Other input sizes plan differently.</source>
        <translation>“%1”（由 %2 写入）的大小只有在运行时才知道：已根据在合成输入（%3）上的一次运行进行规划。其他输入尺寸的规划会不同。</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="219"/>
        <source>The size of &apos;%1&apos; (written by %2) is known only at run time, and the run on synthesized inputs that would plan it failed: %3</source>
        <translation>“%1”（由 %2 写入）的大小只有在运行时才知道，而用于规划它的合成输入运行失败：%3</translation>
    </message>
    <message>
        <location filename="../ui/memory/memory_panel.cpp" line="224"/>
        <source>Cannot plan the memory: %1</source>
        <translation>无法规划内存：%1</translation>
    </message>
</context>
<context>
    <name>passlab::ui::MiniMap</name>
    <message>
        <location filename="../ui/graphview/minimap.cpp" line="55"/>
        <source>Show the minimap</source>
        <translation>显示小地图</translation>
    </message>
</context>
<context>
    <name>passlab::ui::ModelFileController</name>
    <message>
        <location filename="../ui/mainwindow/model_file_controller.cpp" line="36"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/model_file_controller.cpp" line="93"/>
        <source>Saving %1…</source>
        <translation>正在保存 %1…</translation>
    </message>
</context>
<context>
    <name>passlab::ui::OpCountModel</name>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="29"/>
        <source>Not in PassLab&apos;s operator table at this opset</source>
        <translation>PassLab 的算子表在此 opset 下没有该算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="50"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="52"/>
        <source>Domain</source>
        <translation>域</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="54"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_models.cpp" line="56"/>
        <source>In bodies</source>
        <translation>子图中</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PassHelpDialog</name>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="23"/>
        <source>No options.</source>
        <translation>无选项。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="32"/>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="32"/>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="33"/>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="33"/>
        <source>What it sets</source>
        <translation>作用</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="39"/>
        <source>Lossy: the check holds its outputs to the accuracy budget, not to equality.</source>
        <translation>有损：检查按精度预算而非相等来衡量其输出。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="42"/>
        <source>May change results in the last bits.</source>
        <translation>可能改变结果的最低几位。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="44"/>
        <source>May emit operators outside standard ONNX.</source>
        <translation>可能生成标准 ONNX 之外的算子。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="46"/>
        <source>Runs only when named, never as part of a level.</source>
        <translation>仅在指名时运行，从不作为某个级别的一部分。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="47"/>
        <source>Written and tested for default-domain opsets %1 to %2.</source>
        <translation>针对默认域 opset %1 到 %2 编写并测试。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="60"/>
        <source>Open the lesson: %1</source>
        <translation>打开课程：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="90"/>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="91"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="92"/>
        <source>How it works (from its source)</source>
        <translation>工作原理（摘自源代码）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="93"/>
        <source>Not documented.</source>
        <translation>无文档。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pass_help.cpp" line="100"/>
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PipelinePanel</name>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="215"/>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="329"/>
        <source>Calibration data</source>
        <translation>校准数据</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="253"/>
        <source>Running %1 (%2 of %3)…</source>
        <translation>正在运行 %1（第 %2 个，共 %3 个）…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="279"/>
        <source>Calibration of quantize_static: %1</source>
        <translation>quantize_static 的校准：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="284"/>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="286"/>
        <source>Choose passes…</source>
        <translation>选择优化遍…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="287"/>
        <source>Basic: structural cleanup</source>
        <translation>基础：结构清理</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="288"/>
        <source>Default: cleanup, fusion, substitution</source>
        <translation>默认：清理、融合、替换</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="289"/>
        <source>Fused: default, then PassLab fused kernels (non-standard)</source>
        <translation>融合：默认级别，再加 PassLab 融合内核（非标准）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="291"/>
        <source>ONNX Runtime: default with its contrib fusions (non-standard)</source>
        <translation>ONNX Runtime：默认级别加其 contrib 融合（非标准）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="293"/>
        <source>All passes</source>
        <translation>全部优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="295"/>
        <source>The list becomes the level&apos;s schedule, in the order the command line runs it; a pass that runs twice has two rows.</source>
        <translation>列表变为该级别的调度，顺序与命令行运行时相同；运行两次的优化遍占两行。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="297"/>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="297"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="297"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="298"/>
        <source>Move &amp;Up</source>
        <translation>上移(&amp;U)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="299"/>
        <source>Move &amp;Down</source>
        <translation>下移(&amp;D)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="300"/>
        <source>Add Pass</source>
        <translation>添加优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="301"/>
        <source>Insert a run of a pass after the chosen row</source>
        <translation>在所选行之后插入一次优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="302"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="303"/>
        <source>Take the chosen row out of the list</source>
        <translation>从列表中移除所选行</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="320"/>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="320"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="321"/>
        <source>Check the outputs numerically after each pass</source>
        <translation>每个优化遍之后对输出做数值检查</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="323"/>
        <source>Runs the model before the first Step and after each Step on the same seeded inputs and compares the outputs; the run stops at the first pass that changes them.</source>
        <translation>在第一步之前和每一步之后，用相同的随机种子输入运行模型并比较输出；运行在第一个改变输出的优化遍处停止。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="325"/>
        <source>Standard ONNX only</source>
        <translation>仅限标准 ONNX</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="327"/>
        <source>Passes that would emit PassLab or ONNX Runtime operators are skipped.</source>
        <translation>会生成 PassLab 或 ONNX Runtime 专有算子的优化遍将被跳过。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="328"/>
        <source>Budget of lossy passes:</source>
        <translation>有损优化遍的精度预算：</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="330"/>
        <source>Choose a folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="331"/>
        <source>Use synthesized inputs</source>
        <translation>使用合成输入</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="333"/>
        <source>The input sets quantize_static calibrates its ranges on (the numeric check then runs on the first of them): one subfolder per set, each with input_0.pb or input_0.npy, input_1…, in the order of the model&apos;s inputs</source>
        <translation>quantize_static 用于校准范围的输入集（数值检查随后在其中前几组上运行）：每组一个子文件夹，各含 input_0.pb 或 input_0.npy、input_1…，顺序与模型输入一致</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="340"/>
        <source>A lossy pass (float16, int8, low rank) is checked against this budget instead of equality, per output; a step over it is rolled back and names the layer that lost the most.</source>
        <translation>有损优化遍（float16、int8、低秩）按每个输出对照此预算检查，而不是要求相等；超出预算的步骤会被回滚，并指出损失最大的层。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="345"/>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="346"/>
        <source>Apply the next pass</source>
        <translation>应用下一个优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="347"/>
        <source>Run &amp;All</source>
        <translation>全部运行(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="348"/>
        <source>Apply every switched-on pass from the next one to the end</source>
        <translation>从下一个起应用所有已启用的优化遍，直到末尾</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="349"/>
        <source>Rese&amp;t</source>
        <translation>重置(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="350"/>
        <source>Back to the model before the first Step (undoable)</source>
        <translation>回到第一步之前的模型（可撤销）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="351"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="352"/>
        <source>Stop after the pass that is running</source>
        <translation>在当前运行的优化遍结束后停止</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="353"/>
        <source>All Nodes</source>
        <translation>全部节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="354"/>
        <source>Let the passes work on every node again</source>
        <translation>让优化遍重新作用于全部节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="382"/>
        <source>May change results in the last bits.</source>
        <translation>可能改变结果的最低几位。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="384"/>
        <source>May emit operators outside standard ONNX.</source>
        <translation>可能生成标准 ONNX 之外的算子。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="460"/>
        <source>Choose a pass to see what it does and its options.</source>
        <translation>选择一个优化遍以查看它的作用和选项。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="468"/>
        <source>About this pass…</source>
        <translation>关于此 Pass…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="469"/>
        <source>No options.</source>
        <translation>无选项。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="485"/>
        <source>Default: %1</source>
        <translation>默认值：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="556"/>
        <source>Passes work only on the %n selected node(s).</source>
        <translation>
            <numerusform>优化遍仅作用于所选的 %n 个节点。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="559"/>
        <source>%n node(s) excluded from the passes.</source>
        <translation>
            <numerusform>%n 个节点不受优化遍影响。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="569"/>
        <source>Done: all %n row(s) applied.</source>
        <translation>
            <numerusform>完成：已应用全部 %n 行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="571"/>
        <source>No pass is switched on.</source>
        <translation>没有启用任何优化遍。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="585"/>
        <source>The numeric check does not compare %n output(s) (%1): computed from random ops without a seed, they differ on every run.</source>
        <translation>
            <numerusform>数值检查不比较 %n 个输出（%1）：它们由未设种子的随机算子计算，每次运行都不同。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="610"/>
        <source>(and %n more)</source>
        <translation>
            <numerusform>（另有 %n 个）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="611"/>
        <source>Inputs the check makes up: %1</source>
        <translation>检查自动生成的输入：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="567"/>
        <source>Next: %1 (row %2 of %3)</source>
        <translation>下一个：%1（第 %2 行，共 %3 行）</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="194"/>
        <source>About %1…</source>
        <translation>关于 %1…</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="579"/>
        <source>No pass has run on this model yet.</source>
        <translation>此模型尚未运行任何优化遍。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="579"/>
        <source>%n step(s) applied.</source>
        <translation>
            <numerusform>已应用 %n 步。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_panel.cpp" line="277"/>
        <source>Calibration of quantize_static: %n synthesized input set(s)</source>
        <translation>
            <numerusform>quantize_static 的校准：%n 组合成输入</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>passlab::ui::PipelineSession</name>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="476"/>
        <source>The numeric check cannot run, so it is off for this run: %1</source>
        <translation>数值检查无法运行，本次运行不做检查：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_session.cpp" line="515"/>
        <source>%n pass(es) rolled back and left out (the verifier rejected their graphs), the passes after them ran: %1</source>
        <translation>
            <numerusform>%n 个 pass 已回滚并略过（验证器拒绝了它们的图），其后的 pass 照常运行：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_session.cpp" line="529"/>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="537"/>
        <source>Cancelled after %n pass(es)</source>
        <translation>
            <numerusform>已在 %n 个优化遍后取消</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="544"/>
        <source>%1 failed and was rolled back: %2</source>
        <translation>%1 失败并已回滚：%2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="548"/>
        <source>%1 changed the outputs (%2); the run stopped there</source>
        <translation>%1 改变了输出（%2）；运行在此停止</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="619"/>
        <source>The model changed while the passes ran; their results were dropped.</source>
        <translation>优化遍运行期间模型发生了变化；其结果已丢弃。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/pipeline_session.cpp" line="748"/>
        <source>%n synthesized input set(s)</source>
        <translation>
            <numerusform>%n 组合成输入</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="767"/>
        <source>The Steps of %1 calibrated on different data (%2, then %3), and a recipe records one calibration: its replay would not make this model. Undo to the Steps that calibrated alike, or Reset and run them with one calibration.</source>
        <translation>%1 的各步骤在不同的数据上校准（先 %2，后 %3），而配方只记录一种校准：重放它不会得到这个模型。请撤销到校准相同的步骤，或重置后用同一种校准运行它们。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="780"/>
        <source>Every Step was rolled back, so the model is as it was: a recipe has no Step to record. Export it once a Step has changed the model.</source>
        <translation>每个步骤都已回滚，模型保持原样：配方没有可记录的步骤。请在某个步骤改变模型后再导出。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="792"/>
        <source>%1 ran with &quot;Standard ONNX only&quot; %2, %3 before it %4, and a recipe records one setting: its replay would not make this model. Undo to the Steps that ran alike, or Reset and run them with one setting.</source>
        <translation>%1 运行时“仅限标准 ONNX”为%2，之前的 %3 为%4，而配方只记录一种设置：重放它不会得到这个模型。请撤销到设置相同的步骤，或重置后用同一种设置运行它们。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="795"/>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="797"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="795"/>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="797"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="802"/>
        <source>%1 and %2 were held to different accuracy budgets, and a recipe records one budget: its replay would not make this model. Undo to the Steps held to one budget, or Reset and run them with one budget.</source>
        <translation>%1 与 %2 使用了不同的精度预算，而配方只记录一种预算：重放它不会得到这个模型。请撤销到预算相同的步骤，或重置后用同一种预算运行它们。</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/pipeline_session.cpp" line="812"/>
        <source>%1 and %2 were checked on different numbers of input sets (%3, then %4), and a recipe records one: its replay would not make this model. Undo to the Steps checked alike, or Reset and run them with one count.</source>
        <translation>%1 与 %2 在不同数量的输入组上检查（先 %3，后 %4），而配方只记录一种：重放它不会得到这个模型。请撤销到检查相同的步骤，或重置后用同一数量运行它们。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PortModel</name>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="87"/>
        <source>(omitted)</source>
        <translation>（省略）</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="94"/>
        <source>initializer %1</source>
        <translation>初始值 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="95"/>
        <source>graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="97"/>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="98"/>
        <source>outer scope</source>
        <translation>外层作用域</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/port_model.cpp" line="100"/>
        <source>%n reader(s)</source>
        <translation>
            <numerusform>%n 个读取者</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="101"/>
        <source>graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="114"/>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="116"/>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="116"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="118"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="120"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../ui/properties/port_model.cpp" line="120"/>
        <source>Readers</source>
        <translation>读取者</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PrecisionPanel</name>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="133"/>
        <source>Calibration data</source>
        <translation>校准数据</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="194"/>
        <source>Convert to:</source>
        <translation>转换为：</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="197"/>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="201"/>
        <source>How an activation&apos;s range is chosen from its calibration values</source>
        <translation>如何根据校准值选择激活值的量化范围</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="202"/>
        <source>Per channel</source>
        <translation>逐通道</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="203"/>
        <source>One weight scale per output channel (else one per tensor)</source>
        <translation>每个输出通道一个权重缩放因子（否则每个张量一个）</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="204"/>
        <source>Choose a folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="206"/>
        <source>One subfolder per input set, each with input_0.pb or input_0.npy, input_1…, in the order of the model&apos;s inputs</source>
        <translation>每组输入一个子文件夹，其中按模型输入顺序放 input_0.pb 或 input_0.npy、input_1…</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="208"/>
        <source>or synthesized sets:</source>
        <translation>或合成输入组数：</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="209"/>
        <source>Accuracy budget:</source>
        <translation>精度预算：</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="210"/>
        <source>Rank Layers</source>
        <translation>逐层排序</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="212"/>
        <source>Convert each layer alone and measure the outputs: the most sensitive layer loses the most SNR</source>
        <translation>逐个单独转换每一层并测量输出：最敏感的层损失的信噪比最多</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="214"/>
        <source>Mixed Precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="216"/>
        <source>Keep the fewest most sensitive layers in float32 for the budget to hold, and apply the pass with them left out as a pipeline Step</source>
        <translation>将最少的最敏感层保留为 float32 以满足预算，并在排除这些层后把该遍作为流水线步骤应用</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="218"/>
        <source>Calibrate</source>
        <translation>校准</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="220"/>
        <source>Run the model on the calibration sets and keep every activation&apos;s histogram: select a tensor in the graph to see it</source>
        <translation>在校准数据上运行模型并保存每个激活值的直方图：在图中选择张量即可查看</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="222"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/precision/precision_panel.cpp" line="254"/>
        <source>Calibration data: %n synthesized input set(s)</source>
        <translation>
            <numerusform>校准数据：%n 组合成输入</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="256"/>
        <source>Calibration data: %1</source>
        <translation>校准数据：%1</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="270"/>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="272"/>
        <source>No model open.</source>
        <translation>未打开模型。</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="342"/>
        <source>The model changed while it was measured; the result was dropped.</source>
        <translation>测量期间模型已更改；结果已丢弃。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/precision/precision_panel.cpp" line="350"/>
        <source>Calibrated %n activation(s): select a tensor in the graph to see its histogram</source>
        <translation>
            <numerusform>已校准 %n 个激活值：在图中选择张量即可查看其直方图</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/precision/precision_panel.cpp" line="360"/>
        <source>%1: %n layer(s) convert alone; the most sensitive on top</source>
        <translation>
            <numerusform>%1：%n 个层可单独转换；最敏感的在最上方</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="380"/>
        <source>The budget cannot be met: %1 holds it only with every layer it converts kept in float32. With only the least sensitive converted: %2</source>
        <translation>无法满足预算：%1 只有在其转换的每一层都保持 float32 时才能满足预算。仅转换最不敏感的一层时：%2</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="387"/>
        <source>%1: %2 of %3 layer(s) kept in float32 for the budget (%4 conversions tried)</source>
        <translation>%1：为满足预算，%3 个层中有 %2 个保留为 float32（尝试了 %4 次转换）</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="395"/>
        <source>The pipeline is busy: the Step was not applied.</source>
        <translation>流水线正忙：未应用该步骤。</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="422"/>
        <source>Calibrate, then select a tensor in the graph to see its histogram and the range the method quantizes to.</source>
        <translation>先校准，再在图中选择张量，即可查看其直方图以及所选方法的量化范围。</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="426"/>
        <source>Select a tensor in the graph to see its histogram.</source>
        <translation>在图中选择张量即可查看其直方图。</translation>
    </message>
    <message>
        <location filename="../ui/precision/precision_panel.cpp" line="427"/>
        <source>&apos;%1&apos; is not a float32 activation the calibration observed.</source>
        <translation>“%1”不是校准观察到的 float32 激活值。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PrecisionWorker</name>
    <message>
        <location filename="../ui/precision/precision_worker.cpp" line="175"/>
        <source>Cancelled: the model was left as it is.</source>
        <translation>已取消：模型保持原样。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::ProfileChart</name>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="93"/>
        <source>Before</source>
        <translation>优化前</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="93"/>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="94"/>
        <source>After</source>
        <translation>优化后</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="121"/>
        <source>Node groups: time before and after</source>
        <translation>节点组：优化前后的耗时</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="122"/>
        <source>Op types by time</source>
        <translation>按耗时排列的算子类型</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_chart.cpp" line="123"/>
        <source>Nodes by time</source>
        <translation>按耗时排列的节点</translation>
    </message>
</context>
<context>
    <name>passlab::ui::ProfilePanel</name>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="232"/>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="234"/>
        <source>Threads:</source>
        <translation>线程：</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="235"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="236"/>
        <source>Threads of the executor (all: every core)</source>
        <translation>执行器的线程数（全部：使用所有核心）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="237"/>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="238"/>
        <source>Untimed runs before measuring</source>
        <translation>测量前不计时的运行次数</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="239"/>
        <source>Repeats:</source>
        <translation>重复：</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="240"/>
        <source>Timed runs; each node&apos;s time is the median over them</source>
        <translation>计时运行次数；每个节点的时间取其中位数</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="241"/>
        <source>&amp;Profile</source>
        <translation>性能分析(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="242"/>
        <source>Profile the current model: the time of every node</source>
        <translation>分析当前模型：每个节点的耗时</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="243"/>
        <source>Compare with &amp;Original</source>
        <translation>与原模型比较(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="245"/>
        <source>Profile the opened original and the current model and compare them node group by node group (needs an applied Step)</source>
        <translation>分析打开的原模型和当前模型，并按节点组逐一比较（需要至少应用一个步骤）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="247"/>
        <source>Heat Overlay</source>
        <translation>热度叠加</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="248"/>
        <source>Colour the graph by each node&apos;s share of the run time</source>
        <translation>按每个节点占运行时间的比例为图着色</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="250"/>
        <source>Pale: little time; deep red: the node that took the most</source>
        <translation>浅色：耗时少；深红：耗时最多的节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="251"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="252"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="253"/>
        <source>Filter by node, op or kind…</source>
        <translation>按节点、算子或类别筛选…</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="254"/>
        <source>Op Types</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="255"/>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="256"/>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="257"/>
        <source>Top nodes</source>
        <translation>耗时最多的节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="258"/>
        <source>Top op types</source>
        <translation>耗时最多的算子类型</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="259"/>
        <location filename="../ui/profile/profile_panel.cpp" line="406"/>
        <source>Not profiled yet: press Profile.</source>
        <translation>尚未分析：请按“性能分析”。</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="283"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="284"/>
        <source>The host&apos;s CPU kernels</source>
        <translation>主机的 CPU 内核</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="285"/>
        <source>Where the profile runs</source>
        <translation>性能分析在何处运行</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="298"/>
        <source>No GPU: %1</source>
        <translation>没有 GPU：%1</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="306"/>
        <source>Ran on the CPU</source>
        <translation>在 CPU 上运行</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="307"/>
        <source>Ran on the CPU (%1)</source>
        <translation>在 CPU 上运行（%1）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="308"/>
        <source>Ran on %1</source>
        <translation>在 %1 上运行</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="310"/>
        <source>Ran on %1: %2 steps on the device, %3 on the host (dims only), %4 on the CPU (fallback)</source>
        <translation>在 %1 上运行：%2 个步骤在设备上，%3 个在主机上（仅维度），%4 个在 CPU 上（回退）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="317"/>
        <source>%1 constant steps kept from an earlier run</source>
        <translation>%1 个常量步骤沿用之前运行的结果</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="318"/>
        <source>copies: %1 to the device (%2), %3 to the host (%4)</source>
        <translation>复制：%1 次到设备（%2），%3 次到主机（%4）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="330"/>
        <source>Steps run on the CPU instead of the device:</source>
        <translation>在 CPU 而非设备上运行的步骤：</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="344"/>
        <location filename="../ui/profile/profile_panel.cpp" line="361"/>
        <source>Original: %1</source>
        <translation>原始：%1</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="345"/>
        <location filename="../ui/profile/profile_panel.cpp" line="363"/>
        <source>Current: %1</source>
        <translation>当前：%1</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="439"/>
        <source>Profiling…</source>
        <translation>正在进行性能分析…</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="453"/>
        <source>Profiling the original and the current model…</source>
        <translation>正在分析原模型和当前模型…</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="478"/>
        <source>Cannot profile: %1</source>
        <translation>无法进行性能分析：%1</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="480"/>
        <source>Not profiled.</source>
        <translation>未分析。</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="487"/>
        <source>(the model has changed since: profile again)</source>
        <translation>（此后模型已更改：请重新分析）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/profile/profile_panel.cpp" line="497"/>
        <source>Original %1 ms → current %2 ms: %3× (%n node group(s), %4 slower; matched by %5)</source>
        <translation>
            <numerusform>原模型 %1 ms → 当前 %2 ms：%3×（%n 个节点组，%4 个变慢；按%5匹配）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="504"/>
        <source>provenance</source>
        <translation>来源追溯</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="504"/>
        <source>op and output names</source>
        <translation>算子与输出名</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="506"/>
        <source>Latency %1 ms (min %2, %3 runs, threads: %4); nodes %5 ms, overhead %6 ms (%7%)</source>
        <translation>延迟 %1 ms（最小 %2，%3 次运行，线程：%4）；节点合计 %5 ms，开销 %6 ms（%7%）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="534"/>
        <source>Node Groups</source>
        <translation>节点组</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="534"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="591"/>
        <source>Median %1 ms (min %2, p90 %3, spread %4%)</source>
        <translation>中位数 %1 ms（最小 %2，p90 %3，离散度 %4%）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="596"/>
        <source>(noisy)</source>
        <translation>（噪声大）</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="597"/>
        <source>%1% of the nodes&apos; time; %2 GFLOP/s, %3 GB/s; kernel %4</source>
        <translation>占节点总耗时的 %1%；%2 GFLOP/s，%3 GB/s；内核 %4</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="608"/>
        <location filename="../ui/profile/profile_panel.cpp" line="613"/>
        <source>Nothing profiled yet</source>
        <translation>尚未进行性能分析</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="619"/>
        <source>Export Profile as JSON</source>
        <translation>将性能分析导出为 JSON</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="619"/>
        <source>Export Profile as CSV</source>
        <translation>将性能分析导出为 CSV</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="620"/>
        <source>JSON file (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="620"/>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_panel.cpp" line="623"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>passlab::ui::ProfileRunner</name>
    <message>
        <location filename="../ui/profile/profile_runner.cpp" line="128"/>
        <source>warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_runner.cpp" line="129"/>
        <source>measuring</source>
        <translation>测量</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_runner.cpp" line="130"/>
        <source>interleaved rounds</source>
        <translation>交替轮次</translation>
    </message>
    <message>
        <location filename="../ui/profile/profile_runner.cpp" line="150"/>
        <source>Profiling cancelled</source>
        <translation>已取消性能分析</translation>
    </message>
</context>
<context>
    <name>passlab::ui::PropertiesPanel</name>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="189"/>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="190"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="191"/>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="192"/>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="193"/>
        <source>Schema</source>
        <translation>算子定义</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="194"/>
        <source>Documentation</source>
        <translation>说明</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="195"/>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="196"/>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="197"/>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="198"/>
        <source>Bodies</source>
        <translation>子图</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="199"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="200"/>
        <source>Initializer data</source>
        <translation>初始值数据</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="201"/>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="202"/>
        <source>Provenance</source>
        <translation>来源追溯</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="203"/>
        <source>Timing</source>
        <translation>计时</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="204"/>
        <source>Why patterns did not match</source>
        <translation>模式未匹配的原因</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="205"/>
        <source>Press Enter to rename; renaming can be undone.</source>
        <translation>按回车键重命名；重命名可以撤销。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="275"/>
        <source>Nothing selected</source>
        <translation>未选中任何内容</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="276"/>
        <source>Click a node, an arrow or a group in the graph to see its properties.</source>
        <translation>在计算图中点击节点、箭头或分组以查看其属性。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="299"/>
        <source>Gone</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="300"/>
        <source>The selected item no longer exists in this model.</source>
        <translation>所选项目在此模型中已不存在。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="306"/>
        <source>(unnamed node)</source>
        <translation>（未命名节点）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="322"/>
        <source>%1 %2, version %3 (model imports opset %4)</source>
        <translation>%1 %2，版本 %3（模型导入的 opset 为 %4）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="325"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="328"/>
        <source>Not defined at the imported opset; the newest known version is %1</source>
        <translation>在导入的 opset 中未定义；已知的最新版本为 %1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="332"/>
        <source>Unknown operator</source>
        <translation>未知算子</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="333"/>
        <source>PassLab&apos;s operator table has no entry for %1.</source>
        <translation>PassLab 的算子表中没有 %1。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="359"/>
        <source>Open %1 (%2 nodes)</source>
        <translation>打开 %1（%2 个节点）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="381"/>
        <source>No data yet. Provenance is recorded when optimization passes run; no pass has run on this model.</source>
        <translation>暂无数据。来源追溯在运行优化遍时记录；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="384"/>
        <source>No data yet. Patterns report why they did not match when passes run; no pass has run on this model.</source>
        <translation>暂无数据。运行优化遍时，各模式会报告未能匹配的原因；此模型尚未运行任何优化遍。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="393"/>
        <source>Made by %1 (step %2) from: %3</source>
        <translation>由 %1（第 %2 步）生成，来源：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="398"/>
        <source>Original node: no pass created or rewrote it.</source>
        <translation>原始节点：没有任何优化遍创建或改写它。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="402"/>
        <source>No pattern reported a failed match on this node.</source>
        <translation>没有模式报告在此节点上匹配失败。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="406"/>
        <source>%1 / %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="418"/>
        <source>Type: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="419"/>
        <source>Graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="420"/>
        <source>Graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="421"/>
        <source>Initializer (constant data stored in the model)</source>
        <translation>初始值（存储在模型中的常量数据）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="423"/>
        <source>Produced by %1</source>
        <translation>由 %1 产生</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="434"/>
        <source>%1 (input %2)</source>
        <translation>%1（输入 %2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="435"/>
        <source>Read by %n node(s)</source>
        <translation>
            <numerusform>被 %n 个节点读取</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="448"/>
        <source>Element type: %1</source>
        <translation>元素类型：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="449"/>
        <source>Shape: %1</source>
        <translation>形状：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="450"/>
        <source>Elements: %1</source>
        <translation>元素个数：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="451"/>
        <source>Size: %1</source>
        <translation>大小：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="452"/>
        <source>Stored in: %1</source>
        <translation>存储位置：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="459"/>
        <source>Computing statistics of %1 elements…</source>
        <translation>正在统计 %1 个元素…</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="470"/>
        <source>No numeric statistics for this element type.</source>
        <translation>此元素类型没有数值统计。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="475"/>
        <source>Empty tensor.</source>
        <translation>空张量。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="480"/>
        <source>min %1   max %2</source>
        <translation>最小值 %1   最大值 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="481"/>
        <source>mean %1   std %2</source>
        <translation>均值 %1   标准差 %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="482"/>
        <source>zeros %1 (%2%)</source>
        <translation>零值 %1（%2%）</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="485"/>
        <source>NaN %1   Inf %2</source>
        <translation>NaN %1   Inf %2</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="499"/>
        <source>This group is not part of the current grouping.</source>
        <translation>此分组不属于当前的分组方式。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/properties/properties_panel.cpp" line="503"/>
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="512"/>
        <source>Repeated block %1 of %2 with the same sequence of operators.</source>
        <translation>重复模块：算子序列相同的 %2 个模块中的第 %1 个。</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="520"/>
        <source>Operators: %1</source>
        <translation>算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/properties/properties_panel.cpp" line="521"/>
        <source>Double-click the group in the graph to open it; double-click the frame title of an open group to close it.</source>
        <translation>在计算图中双击分组可将其展开；双击已展开分组的边框标题可将其折叠。</translation>
    </message>
</context>
<context>
    <name>passlab::ui::RooflineView</name>
    <message>
        <location filename="../ui/profile/roofline_view.cpp" line="83"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/roofline_view.cpp" line="104"/>
        <source>Roofline: no node with known FLOPs</source>
        <translation>屋顶线：没有已知 FLOPs 的节点</translation>
    </message>
    <message>
        <location filename="../ui/profile/roofline_view.cpp" line="111"/>
        <source>Arithmetic intensity (FLOP/byte)</source>
        <translation>算术强度（FLOP/字节）</translation>
    </message>
    <message>
        <location filename="../ui/profile/roofline_view.cpp" line="112"/>
        <source>GFLOP/s (achieved)</source>
        <translation>GFLOP/s（实际）</translation>
    </message>
    <message>
        <location filename="../ui/profile/roofline_view.cpp" line="120"/>
        <source>Roofs: %1 GB/s, %2 GFLOP/s</source>
        <translation>屋顶：%1 GB/s，%2 GFLOP/s</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SearchBar</name>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="73"/>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="75"/>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="81"/>
        <source>Find node name, op type or tensor name (Ctrl+F)</source>
        <translation>查找节点名称、算子类型或张量名称（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Anything</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Node name</source>
        <translation>节点名称</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="86"/>
        <source>Tensor name</source>
        <translation>张量名称</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="88"/>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <location filename="../ui/graphview/search_bar.cpp" line="89"/>
        <source>Next match (F3)</source>
        <translation>下一个匹配（F3）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SensitivityChart</name>
    <message>
        <location filename="../ui/precision/sensitivity_chart.cpp" line="30"/>
        <source>%1 dB</source>
        <translation>%1 dB</translation>
    </message>
    <message>
        <location filename="../ui/precision/sensitivity_chart.cpp" line="34"/>
        <source>top-%1 %2%</source>
        <translation>top-%1 %2%</translation>
    </message>
    <message>
        <location filename="../ui/precision/sensitivity_chart.cpp" line="81"/>
        <source>SNR with the layer alone converted</source>
        <translation>仅转换该层时的信噪比</translation>
    </message>
    <message>
        <location filename="../ui/precision/sensitivity_chart.cpp" line="82"/>
        <source>kept in float32</source>
        <translation>保留为 float32</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SettingsDialog</name>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="66"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="67"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="69"/>
        <source>System default (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="70"/>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="71"/>
        <source>Graphviz dot in a helper process, built-in layout if it fails</source>
        <translation>在辅助进程中运行 Graphviz dot，失败时使用内置布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="72"/>
        <source>Built-in layered layout only</source>
        <translation>仅使用内置分层布局</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="73"/>
        <source>Layout helper</source>
        <translation>布局辅助程序</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="74"/>
        <source>found automatically</source>
        <translation>自动查找</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="78"/>
        <source>passlab-layout was not found: the built-in layout will be used.</source>
        <translation>未找到 passlab-layout：将使用内置布局。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="79"/>
        <source>Using %1</source>
        <translation>使用 %1</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="80"/>
        <source>Stop Graphviz after (seconds)</source>
        <translation>Graphviz 超时时间（秒）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="81"/>
        <source>Group graphs with more nodes than</source>
        <translation>节点数超过此值时分组显示</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="82"/>
        <source>Open groups at first while boxes stay under</source>
        <translation>初始展开分组，直到方框数达到</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="83"/>
        <source>Label arrows with element type and shape</source>
        <translation>在箭头上标注元素类型和形状</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow/settings_dialog.cpp" line="85"/>
        <source>Fit the whole graph when opening a model (else: readable size, at its inputs)</source>
        <translation>打开模型时缩放以显示整个图（否则：以可读的大小显示图的输入处）</translation>
    </message>
</context>
<context>
    <name>passlab::ui::SummaryPanel</name>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="103"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="104"/>
        <source>Inputs and outputs</source>
        <translation>输入与输出</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="105"/>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="106"/>
        <source>Loading notes</source>
        <translation>加载说明</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="107"/>
        <source>Colours</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="127"/>
        <source>No model is open.</source>
        <translation>未打开模型。</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="154"/>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="168"/>
        <source>File: %1</source>
        <translation>文件：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="169"/>
        <source>Producer: %1</source>
        <translation>生成工具：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="170"/>
        <source>IR version: %1</source>
        <translation>IR 版本：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="171"/>
        <source>Opsets: %1</source>
        <translation>Opset：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="171"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="172"/>
        <source>Nodes: %1 in the main graph, %2 more in %3 bodies</source>
        <translation>节点：主图 %1 个，另有 %2 个位于 %3 个子图中</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="175"/>
        <source>Parameters: %1 in %2 tensors (%3)</source>
        <translation>参数：%1 个，分布在 %2 个张量中（%3）</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="180"/>
        <source>Mapped from external data: %1</source>
        <translation>从外部数据映射：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="183"/>
        <source>Compute: %1 GFLOP per run</source>
        <translation>计算量：每次运行 %1 GFLOP</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/summary/summary_panel.cpp" line="184"/>
        <source> (%n node(s) without a cost estimate)</source>
        <translation>
            <numerusform>（%n 个节点无法估算开销）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="187"/>
        <source>Types known for %1 of %2 values, shapes for %3</source>
        <translation>%2 个值中已知类型 %1 个，已知形状 %3 个</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="192"/>
        <source>Operators PassLab does not know: %1</source>
        <translation>PassLab 不认识的算子：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="193"/>
        <source>Verifier errors: %1</source>
        <translation>校验错误：%1</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="201"/>
        <source>Unknown operator %1 (%2×): %3</source>
        <translation>未知算子 %1（%2 次）：%3</translation>
    </message>
    <message>
        <location filename="../ui/summary/summary_panel.cpp" line="206"/>
        <source>Verifier: %1</source>
        <translation>校验：%1</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TaskProgress</name>
    <message>
        <location filename="../ui/mainwindow/task_progress.cpp" line="31"/>
        <location filename="../ui/mainwindow/task_progress.cpp" line="69"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TensorHistogram</name>
    <message>
        <location filename="../ui/precision/tensor_histogram.cpp" line="36"/>
        <source>%1: values in [%2, %3]; %4 range [%5, %6], %7% clipped</source>
        <translation>%1：取值范围 [%2, %3]；%4 量化范围 [%5, %6]，截断 %7%</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TimelineModel</name>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="18"/>
        <source>%n removed</source>
        <translation>
            <numerusform>删除 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="19"/>
        <source>%n added</source>
        <translation>
            <numerusform>新增 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="20"/>
        <source>%n rewired</source>
        <translation>
            <numerusform>重连 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="22"/>
        <source>%n rewritten</source>
        <translation>
            <numerusform>改写 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="24"/>
        <source>%n initializer(s) added</source>
        <translation>
            <numerusform>新增初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="26"/>
        <source>%n initializer(s) removed</source>
        <translation>
            <numerusform>删除初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="28"/>
        <source>%n initializer(s) changed</source>
        <translation>
            <numerusform>更改初始值 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="30"/>
        <source>%n graph output(s) rewired</source>
        <translation>
            <numerusform>重连图输出 %n</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="32"/>
        <source>opset %1</source>
        <translation>算子集 %1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="33"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="45"/>
        <source>accepted within the rounding floor: &apos;%1&apos; %2 vs floor %3</source>
        <translation>在舍入下限内接受：&apos;%1&apos; %2，下限 %3</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="51"/>
        <source>within budget: %1</source>
        <translation>在预算内：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="52"/>
        <source>over budget: %1</source>
        <translation>超出预算：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="57"/>
        <source>, %1x the noise floor</source>
        <translation>，噪声底的 %1 倍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="60"/>
        <source>failed: max |err| %1 at %2</source>
        <translation>未通过：最大 |误差| %1，位于 %2</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="64"/>
        <source>passed: max |err| %1</source>
        <translation>通过：最大 |误差| %1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="119"/>
        <source>#</source>
        <translation>序号</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="121"/>
        <source>Pass</source>
        <translation>优化遍</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="123"/>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="125"/>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="127"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="129"/>
        <source>Check</source>
        <translation>数值检查</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_model.cpp" line="157"/>
        <source>%n pass(es) changed nothing</source>
        <translation>
            <numerusform>%n 个优化遍没有改动</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="163"/>
        <location filename="../ui/pipeline/timeline_model.cpp" line="191"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="186"/>
        <source>rolled back: %1</source>
        <translation>已回滚：%1</translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_model.cpp" line="33"/>
        <location filename="../ui/pipeline/timeline_model.cpp" line="188"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
</context>
<context>
    <name>passlab::ui::TimelinePanel</name>
    <message>
        <location filename="../ui/pipeline/timeline_panel.cpp" line="52"/>
        <source>No Steps yet: press Step or Run All in the Pipeline panel.</source>
        <translation>还没有步骤：请在流水线面板中按“单步”或“全部运行”。</translation>
    </message>
    <message numerus="yes">
        <location filename="../ui/pipeline/timeline_panel.cpp" line="58"/>
        <source>%n step(s): %1 → %2 nodes in %3 ms</source>
        <translation>
            <numerusform>%n 步：%1 → %2 个节点，用时 %3 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../ui/pipeline/timeline_panel.cpp" line="74"/>
        <source>Show passes that changed nothing</source>
        <translation>显示没有改动的优化遍</translation>
    </message>
</context>
</TS>

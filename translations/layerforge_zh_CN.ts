<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ConnectionRules</name>
    <message>
        <source>That layer no longer exists.</source>
        <translation>该层已不存在。</translation>
    </message>
    <message>
        <source>A layer cannot feed itself.</source>
        <translation>层不能连接到自身。</translation>
    </message>
    <message>
        <source>%1 takes no inputs.</source>
        <translation>%1 不接受输入。</translation>
    </message>
    <message>
        <source>That would make a cycle: %1 already feeds %2.</source>
        <translation>这样会形成环路：%1 已经向 %2 提供输入。</translation>
    </message>
    <message>
        <source>Already connected.</source>
        <translation>已经连接。</translation>
    </message>
    <message>
        <source>Incompatible shapes: %1</source>
        <translation>形状不兼容：%1</translation>
    </message>
</context>
<context>
    <name>Help</name>
    <message>
        <source>Layerforge %1, a deep-learning studio</source>
        <translation>Layerforge %1，深度学习工作室</translation>
    </message>
    <message>
        <source>Qt %1 (built with %2)</source>
        <translation>Qt %1（编译时 %2）</translation>
    </message>
    <message>
        <source>%1 backend: %2</source>
        <translation>%1 后端：%2</translation>
    </message>
    <message>
        <source>CUDA: %1</source>
        <translation>CUDA：%1</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>HyperparameterData</name>
    <message>
        <source>%1 (best)</source>
        <translation>%1（最佳）</translation>
    </message>
    <message>
        <source>%1 (final)</source>
        <translation>%1（最终）</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>System (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
</context>
<context>
    <name>ModelStats</name>
    <message>
        <source>valid</source>
        <translation>有效</translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 layers · %2 parameters · %3 FLOPs/sample · %4 training memory at batch %5 · %6</source>
        <translation>%1 个层 · %2 个参数 · 每样本 %3 FLOPs · 批大小 %5 时训练内存 %4 · %6</translation>
    </message>
    <message>
        <source>not trainable: %1</source>
        <translation>无法训练：%1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Connected.</source>
        <translation>已连接。</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2：%3</translation>
    </message>
    <message>
        <source>Cut</source>
        <translation>剪切</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Auto-layout</source>
        <translation>自动布局</translation>
    </message>
    <message>
        <source>Insert template</source>
        <translation>插入模板</translation>
    </message>
    <message>
        <source>%1: %2 (click the arrow to expand)</source>
        <translation>%1：%2（点击箭头展开）</translation>
    </message>
    <message>
        <source>%1 (click the arrow to collapse)</source>
        <translation>%1（点击箭头折叠）</translation>
    </message>
    <message>
        <source>%1 params</source>
        <translation>%1 个参数</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Block %1</source>
        <translation>模块 %1</translation>
    </message>
    <message numerus="yes">
        <source>Group %n layer(s)</source>
        <translation>
            <numerusform>将 %n 个层组合为模块</numerusform>
        </translation>
    </message>
    <message>
        <source>Ungroup</source>
        <translation>取消组合</translation>
    </message>
    <message>
        <source>Collapse %1</source>
        <translation>折叠 %1</translation>
    </message>
    <message>
        <source>Expand %1</source>
        <translation>展开 %1</translation>
    </message>
    <message>
        <source>Connect %1 to %2</source>
        <translation>将 %1 连接到 %2</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开连接</translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>将 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>Change %1 of %2</source>
        <translation>修改 %2 的 %1</translation>
    </message>
    <message>
        <source>Change training settings</source>
        <translation>修改训练设置</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>not key=value: %1</source>
        <translation>不是 key=value 形式：%1</translation>
    </message>
    <message>
        <source>gray</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>RGB</source>
        <translation>RGB</translation>
    </message>
    <message>
        <source>RGBA</source>
        <translation>RGBA</translation>
    </message>
    <message>
        <source>No image folder chosen yet.</source>
        <translation>尚未选择图像文件夹。</translation>
    </message>
    <message>
        <source>%1: cannot write the import marker</source>
        <translation>%1：无法写入导入标记</translation>
    </message>
    <message>
        <source>Importing Fashion-MNIST as an image folder (first use only)…</source>
        <translation>正在将 Fashion-MNIST 导入为图像文件夹（仅首次使用时）…</translation>
    </message>
    <message>
        <source>Preparing the example</source>
        <translation>正在准备示例</translation>
    </message>
    <message>
        <source>Cannot import Fashion-MNIST</source>
        <translation>无法导入 Fashion-MNIST</translation>
    </message>
    <message>
        <source>%1

The example stays bound to Fashion-MNIST read into memory.</source>
        <translation>%1

示例仍绑定到读入内存的 Fashion-MNIST。</translation>
    </message>
    <message>
        <source>The Input node &apos;%1&apos; takes %2, but the dataset&apos;s images are %3.</source>
        <translation>输入节点“%1”接受 %2，但数据集的图像为 %3。</translation>
    </message>
    <message>
        <source>The output layer &apos;%1&apos; has %2 units, but the dataset has %3 classes: set the last layer&apos;s units to %3.</source>
        <translation>输出层“%1”有 %2 个单元，但数据集有 %3 个类别：请将最后一层的单元数设为 %3。</translation>
    </message>
    <message>
        <source>The last Dense layer &apos;%1&apos; has %2 units, but the dataset has %3 classes: set its units to %3.</source>
        <translation>最后一个全连接层“%1”有 %2 个单元，但数据集有 %3 个类别：请将其单元数设为 %3。</translation>
    </message>
    <message>
        <source>Input %1 · %2 layers · %3 parameters · %4 outputs</source>
        <translation>输入 %1 · %2 层 · %3 个参数 · %4 个输出</translation>
    </message>
    <message>
        <source>%1+%2 ms · %3</source>
        <translation>%1+%2 毫秒 · %3</translation>
    </message>
    <message>
        <source>Freeze up to %1</source>
        <translation>冻结至 %1</translation>
    </message>
    <message>
        <source>Freeze block %1</source>
        <translation>冻结模块 %1</translation>
    </message>
    <message>
        <source>the image folder %1 has no class folders</source>
        <translation>图像文件夹 %1 中没有类别文件夹</translation>
    </message>
    <message>
        <source>Replace head after %1 (%2 classes)</source>
        <translation>替换 %1 之后的输出头（%2 个类别）</translation>
    </message>
    <message>
        <source>%1 params, frozen</source>
        <translation>%1 个参数，已冻结</translation>
    </message>
    <message>
        <source>a run of several processes trains on the CPU in this version: choose the CPU device</source>
        <translation>此版本中多进程训练只在 CPU 上运行：请选择 CPU 设备</translation>
    </message>
    <message>
        <source>save the project first: the %1 processes read it from its file</source>
        <translation>请先保存项目：%1 个进程从项目文件读取它</translation>
    </message>
    <message>
        <source>cannot write %1 for the training processes: %2</source>
        <translation>无法为训练进程写入 %1：%2</translation>
    </message>
    <message>
        <source>Open MPI&apos;s mpirun is not installed: apt install openmpi-bin</source>
        <translation>未安装 Open MPI 的 mpirun：apt install openmpi-bin</translation>
    </message>
    <message>
        <source>the hostfile %1 does not exist: choose another or clear it</source>
        <translation>主机文件 %1 不存在：请选择其他文件或清空</translation>
    </message>
</context>
<context>
    <name>lf::ui::BindingSettings</name>
    <message>
        <source>Input pipeline (image folders)</source>
        <translation>输入管道（图像文件夹）</translation>
    </message>
    <message>
        <source>Random horizontal flip</source>
        <translation>随机水平翻转</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Test split</source>
        <translation>测试集</translation>
    </message>
    <message>
        <source>Fraction of the training split</source>
        <translation>按比例从训练集划分</translation>
    </message>
    <message>
        <source>Chooses which images are held out, and the shuffling</source>
        <translation>决定留出哪些图像以及打乱顺序</translation>
    </message>
    <message>
        <source>Stretch</source>
        <translation>拉伸</translation>
    </message>
    <message>
        <source>Fill and crop</source>
        <translation>填满并裁剪</translation>
    </message>
    <message>
        <source>Fit and pad</source>
        <translation>适应并补边</translation>
    </message>
    <message>
        <source>Scale to [0, 1]</source>
        <translation>缩放到 [0, 1]</translation>
    </message>
    <message>
        <source>Standardize (training mean/std)</source>
        <translation>标准化（训练集均值/标准差）</translation>
    </message>
    <message>
        <source>°</source>
        <translation>°</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Validate on</source>
        <translation>验证数据</translation>
    </message>
    <message>
        <source>Fraction</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Resize</source>
        <translation>调整大小</translation>
    </message>
    <message>
        <source>Normalize</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Translate (fraction)</source>
        <translation>平移（比例）</translation>
    </message>
    <message>
        <source>Rotate up to</source>
        <translation>最大旋转角度</translation>
    </message>
    <message>
        <source>Brightness ±</source>
        <translation>亮度 ±</translation>
    </message>
    <message>
        <source>Contrast ±</source>
        <translation>对比度 ±</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Fashion-MNIST (installed) is read into memory as is</source>
        <translation>Fashion-MNIST（已安装）按原样读入内存</translation>
    </message>
    <message>
        <source>ImageNet mean/std (torchvision models)</source>
        <translation>ImageNet 均值/标准差（torchvision 模型）</translation>
    </message>
    <message>
        <source>Scale to [-1, 1] (Keras MobileNetV2)</source>
        <translation>缩放到 [-1, 1]（Keras MobileNetV2）</translation>
    </message>
</context>
<context>
    <name>lf::ui::CanvasScene</name>
    <message numerus="yes">
        <source>%n layer(s), %1 params</source>
        <translation>
            <numerusform>%n 个层，%1 个参数</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n layer(s)</source>
        <translation>
            <numerusform>移动 %n 个层</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::CanvasView</name>
    <message>
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>Replace head (%1 classes)</source>
        <translation>替换输出头（%1 个类别）</translation>
    </message>
    <message>
        <source>Replace head</source>
        <translation>替换输出头</translation>
    </message>
    <message>
        <source>Remove the layers after this one and attach global pooling and a Dense softmax layer with the bound dataset&apos;s classes</source>
        <translation>删除此层之后的层，并接上全局池化和一个按所绑定数据集类别数设置的 Dense softmax 层</translation>
    </message>
    <message>
        <source>Freeze up to here</source>
        <translation>冻结至此层</translation>
    </message>
    <message>
        <source>Freeze block</source>
        <translation>冻结模块</translation>
    </message>
</context>
<context>
    <name>lf::ui::CheckpointBrowser</name>
    <message>
        <source>Filter by run, step, metric value…</source>
        <translation>按运行、步数、指标值筛选…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Settings diff</source>
        <translation>设置差异</translation>
    </message>
    <message>
        <source>Cannot read the run store %1: %2
The checkpoints are not shown; restore the file from a backup or move it away to start a new store.</source>
        <translation>无法读取运行存储 %1：%2
检查点未显示；请从备份恢复该文件，或将其移走以新建存储。</translation>
    </message>
    <message>
        <source>No checkpoints yet in %1. Train with checkpoints enabled and they appear here.</source>
        <translation>%1 中还没有检查点。启用检查点进行训练后，检查点将显示在这里。</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Make the checkpoint&apos;s weights the studio&apos;s current weights</source>
        <translation>将该检查点的权重设为工作室的当前权重</translation>
    </message>
    <message>
        <source>Resume training</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Continue the checkpoint&apos;s run from this step</source>
        <translation>从此步继续该检查点所属的运行</translation>
    </message>
    <message>
        <source>Pinned checkpoints are never removed by the retention policy</source>
        <translation>已固定的检查点永远不会被保留策略删除</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Select two or more checkpoints to compare their metrics</source>
        <translation>选择两个或更多检查点以比较其指标</translation>
    </message>
    <message>
        <source>run %1 %2</source>
        <translation>运行 %1 %2</translation>
    </message>
    <message>
        <source>Could not restore %1: %2</source>
        <translation>无法恢复 %1：%2</translation>
    </message>
    <message>
        <source>Restored %1: its weights are now the current weights.</source>
        <translation>已恢复 %1：其权重现在是当前权重。</translation>
    </message>
    <message>
        <source>Delete checkpoints</source>
        <translation>删除检查点</translation>
    </message>
    <message numerus="yes">
        <source>%n selected checkpoint(s) are pinned. Unpin them before deleting.</source>
        <translation>
            <numerusform>所选的 %n 个检查点已固定。请先取消固定再删除。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n checkpoint(s) from the run store? This cannot be undone.</source>
        <translation>
            <numerusform>从运行存储中删除 %n 个检查点？此操作无法撤销。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::CheckpointTableModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
</context>
<context>
    <name>lf::ui::ClassCountChart</name>
    <message>
        <source>Images per class</source>
        <translation>每个类别的图像数</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2): %Ln image(s)</source>
        <translation>
            <numerusform>%1（%2）：%Ln 张图像</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::CompareChart</name>
    <message>
        <source>Select two or more checkpoints and press Compare</source>
        <translation>选择两个或更多检查点，然后点击“比较”</translation>
    </message>
    <message>
        <source>run %1 %2</source>
        <translation>运行 %1 %2</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
</context>
<context>
    <name>lf::ui::ConfusionModel</name>
    <message>
        <source>true %1, predicted %2: %3 (%4% of the class)</source>
        <translation>真实 %1，预测 %2：%3（占该类的 %4%）</translation>
    </message>
    <message>
        <source>true class %1</source>
        <translation>真实类别 %1</translation>
    </message>
    <message>
        <source>predicted as %1</source>
        <translation>预测为 %1</translation>
    </message>
</context>
<context>
    <name>lf::ui::DatasetPanel</name>
    <message>
        <source>Choose Folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>Use the dataset&apos;s shape</source>
        <translation>使用数据集的形状</translation>
    </message>
    <message>
        <source>Fashion-MNIST (installed)</source>
        <translation>Fashion-MNIST（已安装）</translation>
    </message>
    <message>
        <source>Image folder</source>
        <translation>图像文件夹</translation>
    </message>
    <message>
        <source>ROOT/CLASS/images, or ROOT/train|valid|test/CLASS/images</source>
        <translation>ROOT/CLASS/图像文件，或 ROOT/train|valid|test/CLASS/图像文件</translation>
    </message>
    <message>
        <source>Files that cannot be read as images; training skips them</source>
        <translation>无法作为图像读取的文件；训练时会跳过它们</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Choose an image folder</source>
        <translation>选择图像文件夹</translation>
    </message>
    <message>
        <source>Debian&apos;s dataset-fashion-mnist</source>
        <translation>Debian 的 dataset-fashion-mnist</translation>
    </message>
    <message>
        <source>Not inspected yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <source>Inspecting…</source>
        <translation>正在检查…</translation>
    </message>
    <message numerus="yes">
        <source>%n classes</source>
        <translation>
            <numerusform>%n 个类别</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the dataset</source>
        <translation>无法读取数据集</translation>
    </message>
    <message numerus="yes">
        <source>… %n more</source>
        <translation>
            <numerusform>…还有 %n 种</numerusform>
        </translation>
    </message>
    <message>
        <source>Images: %1
Sizes: %2
Channels: %3
Problems: %4</source>
        <translation>图像：%1
尺寸：%2
通道：%3
问题：%4</translation>
    </message>
    <message>
        <source>Model input: %1 (images are resized to it)</source>
        <translation>模型输入：%1（图像会调整为此尺寸）</translation>
    </message>
    <message>
        <source>Model input: no single Input node</source>
        <translation>模型输入：没有唯一的输入节点</translation>
    </message>
    <message>
        <source>%1 has no test/ folder, so &quot;Validate on: Test split&quot; validates on nothing. Choose &quot;Fraction of the training split&quot;, or add test/CLASS folders.</source>
        <translation>%1 没有 test/ 文件夹，因此“验证数据：测试集”不会进行任何验证。请选择“按比例从训练集划分”，或添加 test/类别 文件夹。</translation>
    </message>
</context>
<context>
    <name>lf::ui::DeviceGauge</name>
    <message>
        <source>This process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <source>All processes</source>
        <translation>所有进程</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Bytes the engine&apos;s models, plans and optimizers hold: weights, gradients, optimizer state, activations and workspaces.</source>
        <translation>引擎中的模型、执行计划和优化器占用的字节数：权重、梯度、优化器状态、激活值和工作空间。</translation>
    </message>
    <message>
        <source>Memory on %1</source>
        <translation>%1 上的内存</translation>
    </message>
</context>
<context>
    <name>lf::ui::DistributedJob</name>
    <message>
        <source>%1 could not be started; check that Open MPI is installed (apt install openmpi-bin)</source>
        <translation>无法启动 %1；请检查是否已安装 Open MPI（apt install openmpi-bin）</translation>
    </message>
    <message>
        <source>stopped: the processes were ended; the run keeps its last checkpoint</source>
        <translation>已停止：进程已结束；该运行保留其最后一个检查点</translation>
    </message>
    <message>
        <source>the training processes ended unexpectedly (exit code %1); the log has mpirun&apos;s output</source>
        <translation>训练进程意外结束（退出码 %1）；日志中有 mpirun 的输出</translation>
    </message>
    <message>
        <source>the training processes did not stop within %1 s: ending them</source>
        <translation>训练进程未在 %1 秒内停止：正在结束它们</translation>
    </message>
</context>
<context>
    <name>lf::ui::ErrorBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>lf::ui::EvaluationView</name>
    <message>
        <source>Predicting %1…</source>
        <translation>正在预测 %1…</translation>
    </message>
    <message>
        <source>Cannot predict %1: %2</source>
        <translation>无法预测 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2 (%3%), with %4</source>
        <translation>%1：%2（%3%），使用 %4</translation>
    </message>
    <message>
        <source>the initial (untrained) weights</source>
        <translation>初始（未训练）权重</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Evaluate the current weights on the project&apos;s test split.</source>
        <translation>在项目的测试集上评估当前权重。</translation>
    </message>
    <message>
        <source>Click a misclassified sample, or drop an image file on the window.</source>
        <translation>点击一个分类错误的样本，或将图像文件拖放到窗口上。</translation>
    </message>
    <message>
        <source>The current weights changed: evaluate again to update.</source>
        <translation>当前权重已更改：请重新评估以更新结果。</translation>
    </message>
    <message>
        <source>Rows: true class. Columns: predicted class. Colour: share of the row.</source>
        <translation>行：真实类别。列：预测类别。颜色：占该行的比例。</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Most confident mistakes first</source>
        <translation>置信度最高的错误在前</translation>
    </message>
    <message>
        <source>Least confident mistakes first</source>
        <translation>置信度最低的错误在前</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>Misclassified samples</source>
        <translation>分类错误的样本</translation>
    </message>
    <message>
        <source>The model cannot be built: %1</source>
        <translation>无法构建模型：%1</translation>
    </message>
    <message>
        <source>Evaluating %1…</source>
        <translation>正在评估 %1…</translation>
    </message>
    <message>
        <source>the initial weights</source>
        <translation>初始权重</translation>
    </message>
    <message>
        <source>Evaluation failed: %1</source>
        <translation>评估失败：%1</translation>
    </message>
    <message>
        <source>Accuracy %1% on %2 %3 samples (%4 misclassified) · macro F1 %5 · weights: %6</source>
        <translation>在 %2 个 %3 样本上的准确率为 %1%（%4 个分类错误） · 宏平均 F1 %5 · 权重：%6</translation>
    </message>
    <message>
        <source>initial (untrained)</source>
        <translation>初始（未训练）</translation>
    </message>
    <message>
        <source>%1 → %2
%3%</source>
        <translation>%1 → %2
%3%</translation>
    </message>
    <message>
        <source>Sample %1 of the %2 split: a %3, predicted %4 with %5% confidence.</source>
        <translation>样本 %1（%2 集）：实际为 %3，预测为 %4，置信度 %5%。</translation>
    </message>
    <message>
        <source>out of memory while predicting</source>
        <translation>预测时内存不足</translation>
    </message>
    <message>
        <source>an internal error stopped the prediction</source>
        <translation>内部错误使预测中止</translation>
    </message>
    <message>
        <source>Predicted class</source>
        <translation>预测类别</translation>
    </message>
    <message>
        <source>True class</source>
        <translation>真实类别</translation>
    </message>
    <message>
        <source>Misclassified</source>
        <translation>分类错误</translation>
    </message>
    <message>
        <source>All samples</source>
        <translation>全部样本</translation>
    </message>
</context>
<context>
    <name>lf::ui::ExampleDataset</name>
    <message>
        <source>%1: the folder exists and is not an earlier import; move it away</source>
        <translation>%1：该文件夹已存在，且不是之前导入的；请将其移走</translation>
    </message>
    <message>
        <source>%1: cannot move the imported images into place</source>
        <translation>%1：无法将导入的图像移动到目标位置</translation>
    </message>
</context>
<context>
    <name>lf::ui::ExportDialog</name>
    <message>
        <source>Export Model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <source>Overwrite files?</source>
        <translation>覆盖文件？</translation>
    </message>
    <message>
        <source>These files already exist:
%1

Overwrite them?</source>
        <translation>以下文件已存在：
%1

是否覆盖？</translation>
    </message>
    <message>
        <source>ONNX</source>
        <translation>ONNX</translation>
    </message>
    <message>
        <source>safetensors (weights + graph)</source>
        <translation>safetensors（权重 + 计算图）</translation>
    </message>
    <message>
        <source>PyTorch code</source>
        <translation>PyTorch 代码</translation>
    </message>
    <message>
        <source>tf.keras code</source>
        <translation>tf.keras 代码</translation>
    </message>
    <message>
        <source>NHWC (as the studio)</source>
        <translation>NHWC（与工作室一致）</translation>
    </message>
    <message>
        <source>NCHW</source>
        <translation>NCHW</translation>
    </message>
    <message>
        <source>Fold BatchNormalization into the preceding layer</source>
        <translation>将 BatchNormalization 折叠到前一层</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation>检查点 %1</translation>
    </message>
    <message>
        <source>none yet: train or restore a checkpoint first</source>
        <translation>暂无：请先训练或恢复一个检查点</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>ONNX opset:</source>
        <translation>ONNX opset：</translation>
    </message>
    <message>
        <source>ONNX layout:</source>
        <translation>ONNX 布局：</translation>
    </message>
    <message>
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export Folder</source>
        <translation>导出文件夹</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>kept the existing files</source>
        <translation>已保留现有文件</translation>
    </message>
    <message>
        <source>there are no weights to export: train the model or restore a checkpoint first</source>
        <translation>没有可导出的权重：请先训练模型或恢复一个检查点</translation>
    </message>
    <message>
        <source>Wrote:
%1</source>
        <translation>已写入：
%1</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>bfloat16 (half the size, rounded to nearest even)</source>
        <translation>bfloat16（大小减半，就近舍入到偶数）</translation>
    </message>
    <message>
        <source>safetensors weights:</source>
        <translation>safetensors 权重：</translation>
    </message>
</context>
<context>
    <name>lf::ui::HyperparameterScatter</name>
    <message>
        <source>Setting</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
</context>
<context>
    <name>lf::ui::Inspector</name>
    <message>
        <source>The layer&apos;s name, unique in the model; weights are saved under it</source>
        <translation>层的名称，在模型中唯一；权重以此名称保存</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>No layer selected</source>
        <translation>未选择层</translation>
    </message>
    <message>
        <source>Select a layer on the canvas to edit it, or drag one in from the palette.</source>
        <translation>在画布上选择一个层进行编辑，或从层面板拖入一个层。</translation>
    </message>
    <message>
        <source>Unknown layer type</source>
        <translation>未知的层类型</translation>
    </message>
    <message>
        <source>%1 not changed: %2</source>
        <translation>%1 未修改：%2</translation>
    </message>
    <message>
        <source>a layer needs a name</source>
        <translation>层必须有名称</translation>
    </message>
    <message>
        <source>another layer is already called &quot;%1&quot;</source>
        <translation>已有另一个层名为“%1”</translation>
    </message>
    <message>
        <source>Not renamed: %1</source>
        <translation>未重命名：%1</translation>
    </message>
    <message>
        <source>Trainable</source>
        <translation>可训练</translation>
    </message>
    <message>
        <source>Unchecked: the layer is frozen. Its weights keep their values while training, and a BatchNormalization uses its moving statistics, as Keras&apos; trainable = False</source>
        <translation>未勾选：该层被冻结。训练时其权重保持不变，BatchNormalization 使用其滑动统计量，与 Keras 的 trainable = False 相同</translation>
    </message>
    <message>
        <source>Unfreeze %1</source>
        <translation>解冻 %1</translation>
    </message>
    <message>
        <source>Freeze %1</source>
        <translation>冻结 %1</translation>
    </message>
</context>
<context>
    <name>lf::ui::LayerCostModel</name>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>FLOPs / sample</source>
        <translation>每样本 FLOPs</translation>
    </message>
    <message>
        <source>Output memory</source>
        <translation>输出内存</translation>
    </message>
    <message>
        <source>Weight memory</source>
        <translation>权重内存</translation>
    </message>
    <message>
        <source>Training memory</source>
        <translation>训练内存</translation>
    </message>
</context>
<context>
    <name>lf::ui::LayerProfileModel</name>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Forward / step</source>
        <translation>前向 / 步</translation>
    </message>
    <message>
        <source>Backward / step</source>
        <translation>反向 / 步</translation>
    </message>
    <message>
        <source>Total time</source>
        <translation>总时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
</context>
<context>
    <name>lf::ui::LayerProfileView</name>
    <message>
        <source>Per-layer time of the training plan after %1 steps: %2 ms per step in the layers&apos; kernels (the loss, the optimizer and data loading are not included).</source>
        <translation>训练计划在 %1 步后的逐层时间：各层内核每步共 %2 毫秒（不含损失、优化器和数据加载）。</translation>
    </message>
    <message>
        <source>Train the model to see each layer&apos;s forward and backward time and memory here and on its card.</source>
        <translation>训练模型后，这里和各层卡片上会显示每层的前向、反向时间和内存。</translation>
    </message>
    <message>
        <source>Passes: %1.</source>
        <translation>各遍执行方式：%1。</translation>
    </message>
</context>
<context>
    <name>lf::ui::MainWindow</name>
    <message>
        <source>Design</source>
        <translation>设计</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Model summary</source>
        <translation>模型摘要</translation>
    </message>
    <message>
        <source>batch </source>
        <translation>批大小 </translation>
    </message>
    <message>
        <source>Batch size used for training and for the memory estimate</source>
        <translation>训练和内存估算所用的批大小</translation>
    </message>
    <message>
        <source>%1[*] — Layerforge</source>
        <translation>%1[*] — Layerforge</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>New from &amp;Template</source>
        <translation>从模板新建(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Insert Template</source>
        <translation>插入模板(&amp;I)</translation>
    </message>
    <message>
        <source>Cannot insert template</source>
        <translation>无法插入模板</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Ctrl+I</source>
        <translation>Ctrl+I</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>创建副本(&amp;U)</translation>
    </message>
    <message>
        <source>Ctrl+D</source>
        <translation>Ctrl+D</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Group into Block</source>
        <translation>组合为模块(&amp;G)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+G</source>
        <translation>Ctrl+Shift+G</translation>
    </message>
    <message>
        <source>U&amp;ngroup Block</source>
        <translation>取消模块组合(&amp;N)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+U</source>
        <translation>Ctrl+Shift+U</translation>
    </message>
    <message>
        <source>Collapse / E&amp;xpand Block</source>
        <translation>折叠/展开模块(&amp;X)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>Auto-layout &amp;Left to Right</source>
        <translation>自动布局：从左到右(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Auto-layout &amp;Top to Bottom</source>
        <translation>自动布局：从上到下(&amp;T)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+L</source>
        <translation>Ctrl+Shift+L</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Ctrl+F</source>
        <translation>Ctrl+F</translation>
    </message>
    <message>
        <source>&amp;Snap to Grid</source>
        <translation>对齐网格(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+G</source>
        <translation>Ctrl+G</translation>
    </message>
    <message>
        <source>Layerforge projects (*.lfproj);;All files (*)</source>
        <translation>Layerforge 项目 (*.lfproj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>Cannot open template</source>
        <translation>无法打开模板</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Cannot save project</source>
        <translation>无法保存项目</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>项目另存为</translation>
    </message>
    <message>
        <source>Cannot import Keras model</source>
        <translation>无法导入 Keras 模型</translation>
    </message>
    <message>
        <source>Imported %1</source>
        <translation>已导入 %1</translation>
    </message>
    <message>
        <source>Recover unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Auto-layout to &amp;Fit Window</source>
        <translation>自动布局以适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Ctrl+Alt+L</source>
        <translation>Ctrl+Alt+L</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Layerforge</source>
        <translation>关于 Layerforge(&amp;A)</translation>
    </message>
    <message>
        <source>About Layerforge</source>
        <translation>关于 Layerforge</translation>
    </message>
    <message>
        <source>Layerforge did not close properly last time. Restore the unsaved changes to an untitled project?</source>
        <translation>Layerforge 上次未正常关闭。要恢复未命名项目中未保存的更改吗？</translation>
    </message>
    <message>
        <source>Layerforge did not close properly last time. Restore the unsaved changes to %1 (%2)?</source>
        <translation>Layerforge 上次未正常关闭。要恢复 %1（%2）中未保存的更改吗？</translation>
    </message>
    <message>
        <source>%1 is in a read-only folder: opened as an untitled copy</source>
        <translation>%1 位于只读文件夹中：已作为未命名副本打开</translation>
    </message>
    <message>
        <source>Save the copy of %1 where its runs can go</source>
        <translation>请将 %1 的副本保存到可存放其训练记录的位置</translation>
    </message>
    <message>
        <source>Start &amp;Page…</source>
        <translation>起始页(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Analyze</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <source>Analyze &amp;Network…</source>
        <translation>分析网络(&amp;N)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+A</source>
        <translation>Ctrl+Shift+A</translation>
    </message>
    <message>
        <source>Errors, warnings and every layer&apos;s memory and FLOPs</source>
        <translation>错误、警告以及每层的内存和 FLOPs</translation>
    </message>
    <message>
        <source>Layer &amp;Profile</source>
        <translation>逐层性能(&amp;P)</translation>
    </message>
    <message>
        <source>Open an image folder</source>
        <translation>打开图像文件夹</translation>
    </message>
    <message>
        <source>Bound the image folder %1</source>
        <translation>已绑定图像文件夹 %1</translation>
    </message>
    <message>
        <source>Cannot open the example</source>
        <translation>无法打开示例</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>&amp;Import Model…</source>
        <translation>导入模型(&amp;I)…</translation>
    </message>
    <message>
        <source>Import model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Keras model JSON, the graph only (*.json);;All files (*)</source>
        <translation>Keras 模型 JSON，仅网络结构 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>An import is already running</source>
        <translation>已有导入正在进行</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Save the imported project</source>
        <translation>保存导入的项目</translation>
    </message>
    <message>
        <source>Cannot import model</source>
        <translation>无法导入模型</translation>
    </message>
    <message>
        <source>Model imported</source>
        <translation>模型已导入</translation>
    </message>
    <message>
        <source>Import &amp;TensorBoard Logs…</source>
        <translation>导入 &amp;TensorBoard 日志…</translation>
    </message>
    <message>
        <source>Import TensorBoard logs (the folder given to tensorboard --logdir)</source>
        <translation>导入 TensorBoard 日志（即传给 tensorboard --logdir 的文件夹）</translation>
    </message>
    <message>
        <source>No TensorBoard runs imported</source>
        <translation>未导入任何 TensorBoard 运行</translation>
    </message>
    <message>
        <source>TensorBoard logs imported</source>
        <translation>已导入 TensorBoard 日志</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n TensorBoard run(s)</source>
        <translation>
            <numerusform>已导入 %n 个 TensorBoard 运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Importing TensorBoard logs from %1…</source>
        <translation>正在从 %1 导入 TensorBoard 日志…</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>lf::ui::MemoryBar</name>
    <message>
        <source>%1  %2 / %3 (peak %4)</source>
        <translation>%1  %2 / %3（峰值 %4）</translation>
    </message>
</context>
<context>
    <name>lf::ui::MetricPlot</name>
    <message>
        <source>step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source> (smoothed %1)</source>
        <translation>（平滑值 %1）</translation>
    </message>
</context>
<context>
    <name>lf::ui::ModelImport</name>
    <message>
        <source>ImageNet mean and standard deviation (torchvision)</source>
        <translation>ImageNet 均值和标准差（torchvision）</translation>
    </message>
    <message>
        <source>[-1, 1] (Keras preprocess_input of MobileNetV2)</source>
        <translation>[-1, 1]（Keras MobileNetV2 的 preprocess_input）</translation>
    </message>
    <message>
        <source>[0, 1]</source>
        <translation>[0, 1]</translation>
    </message>
    <message>
        <source>not recorded in the file: check the model&apos;s documentation</source>
        <translation>文件中未记录：请查阅该模型的文档</translation>
    </message>
    <message numerus="yes">
        <source>Imported %1 (%2): %n layers.</source>
        <translation>
            <numerusform>已导入 %1（%2）：%n 个层。</numerusform>
        </translation>
    </message>
    <message>
        <source>Input normalisation the network expects: %1</source>
        <translation>网络期望的输入归一化：%1</translation>
    </message>
    <message>
        <source>Converted:</source>
        <translation>已转换：</translation>
    </message>
    <message>
        <source>Models (%1);;All files (*)</source>
        <translation>模型 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1: not enough memory to import the model</source>
        <translation>%1：内存不足，无法导入该模型</translation>
    </message>
</context>
<context>
    <name>lf::ui::NetworkReportDialog</name>
    <message>
        <source>Analyze Network</source>
        <translation>分析网络</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>(graph)</source>
        <translation>（整个图）</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>No problems found.</source>
        <translation>未发现问题。</translation>
    </message>
    <message>
        <source>%1 errors, %2 warnings · %3 layers · %4 parameters (%5 trainable) · %6 FLOPs per sample · batch %7: outputs %8, weights %9, about %10 to train (outputs, weights and their gradients)</source>
        <translation>%1 个错误，%2 个警告 · %3 层 · %4 个参数（%5 个可训练）· 每样本 %6 FLOPs · 批大小 %7：输出 %8，权重 %9，训练约需 %10（输出、权重及其梯度）</translation>
    </message>
</context>
<context>
    <name>lf::ui::PalettePanel</name>
    <message>
        <source>Core</source>
        <translation>核心层</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>卷积层</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>池化层</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>归一化层</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活层</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并层</translation>
    </message>
    <message>
        <source>Plugins: %1</source>
        <translation>插件：%1</translation>
    </message>
    <message>
        <source>Search layers…</source>
        <translation>搜索层…</translation>
    </message>
    <message>
        <source>No layers in this category yet</source>
        <translation>此类别中还没有层</translation>
    </message>
</context>
<context>
    <name>lf::ui::ParallelCoordinates</name>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
</context>
<context>
    <name>lf::ui::ParamEditor</name>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number; write a list like 28, 28, 1</source>
        <translation>“%1”不是整数；请写成类似 28, 28, 1 的列表</translation>
    </message>
    <message>
        <source>enter at least one whole number, e.g. 28, 28, 1</source>
        <translation>请至少输入一个整数，例如 28, 28, 1</translation>
    </message>
    <message>
        <source>Allowed: %1</source>
        <translation>允许的值：%1</translation>
    </message>
    <message>
        <source>Default: %1</source>
        <translation>默认值：%1</translation>
    </message>
</context>
<context>
    <name>lf::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>A new language is used the next time Layerforge starts.</source>
        <translation>新的语言将在下次启动 Layerforge 时生效。</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
</context>
<context>
    <name>lf::ui::ProcessesField</name>
    <message>
        <source>1 (in the studio)</source>
        <translation>1（在工作室内）</translation>
    </message>
    <message>
        <source>Train with N processes started by Open MPI&apos;s mpirun, each with its own engine: every process takes its share of each batch (the batch size stays the whole batch) and they average their gradients. 1 trains inside the studio. The processes run on this machine, or on the machines of a hostfile.</source>
        <translation>用 Open MPI 的 mpirun 启动 N 个进程训练，每个进程有自己的引擎：每个进程处理每个批次中属于它的一份（批大小仍是整个批次），并对梯度取平均。1 表示在工作室内训练。进程运行在本机上，或运行在主机文件列出的机器上。</translation>
    </message>
    <message>
        <source>none: all on this machine</source>
        <translation>无：全部在本机</translation>
    </message>
    <message>
        <source>An Open MPI hostfile listing the machines and their slots (mpirun --hostfile FILE); every machine needs Layerforge and the dataset at the same paths</source>
        <translation>列出机器及其槽位的 Open MPI 主机文件（mpirun --hostfile FILE）；每台机器都需要在相同路径下有 Layerforge 和数据集</translation>
    </message>
    <message>
        <source>Hostfile…</source>
        <translation>主机文件…</translation>
    </message>
    <message>
        <source>Open MPI hostfile</source>
        <translation>Open MPI 主机文件</translation>
    </message>
</context>
<context>
    <name>lf::ui::ProjectDocument</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
</context>
<context>
    <name>lf::ui::RunOptionsForm</name>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>val_loss (or loss without validation)</source>
        <translation>val_loss（无验证集时为 loss）</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU：%1</translation>
    </message>
    <message>
        <source>Checkpoint every N steps</source>
        <translation>每 N 步保存检查点</translation>
    </message>
    <message>
        <source>Checkpoint every N epochs</source>
        <translation>每 N 轮保存检查点</translation>
    </message>
    <message>
        <source>Keep newest</source>
        <translation>保留最新的</translation>
    </message>
    <message>
        <source>Keep best by</source>
        <translation>按此指标保留最佳</translation>
    </message>
    <message>
        <source>Best is</source>
        <translation>最佳值为</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source> images</source>
        <translation> 张图像</translation>
    </message>
    <message>
        <source>Train on only the first N training images, to try a design in seconds (as layerforge-cli train --limit-train N)</source>
        <translation>只用前 N 张训练图像训练，几秒内试一个设计（同 layerforge-cli train --limit-train N）</translation>
    </message>
    <message>
        <source>Quick run: use</source>
        <translation>快速运行：使用</translation>
    </message>
    <message>
        <source>Write TensorBoard event files while training, one sub-folder per run (as layerforge-cli train --tensorboard DIR); view them with tensorboard --logdir DIR</source>
        <translation>训练时写入 TensorBoard 事件文件，每次运行一个子文件夹（同 layerforge-cli train --tensorboard DIR）；用 tensorboard --logdir DIR 查看</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>TensorBoard log folder</source>
        <translation>TensorBoard 日志文件夹</translation>
    </message>
    <message>
        <source>TensorBoard logs</source>
        <translation>TensorBoard 日志</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程数</translation>
    </message>
</context>
<context>
    <name>lf::ui::RunOverlay</name>
    <message>
        <source>%1 (epoch)</source>
        <translation>%1（轮次）</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Select runs in the table to overlay their curves.</source>
        <translation>在表格中选择运行以叠加显示它们的曲线。</translation>
    </message>
</context>
<context>
    <name>lf::ui::RunTableModel</name>
    <message>
        <source>Starred</source>
        <translation>已加星标</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>%1 (final)</source>
        <translation>%1（最终）</translation>
    </message>
    <message>
        <source>%1 (best)</source>
        <translation>%1（最佳）</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>%1 (imported)</source>
        <translation>%1（已导入）</translation>
    </message>
    <message>
        <source>Imported from %1</source>
        <translation>导入自 %1</translation>
    </message>
</context>
<context>
    <name>lf::ui::RunsExplorer</name>
    <message>
        <source>Filter by name, tag, note, status…</source>
        <translation>按名称、标签、备注、状态筛选…</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>平行坐标</translation>
    </message>
    <message>
        <source>Scatter</source>
        <translation>散点图</translation>
    </message>
    <message>
        <source>Cannot read the run store %1: %2
The runs are not shown; restore the file from a backup or move it away to start a new store.</source>
        <translation>无法读取运行存储 %1：%2
运行未显示；请从备份恢复该文件，或将其移走以新建存储。</translation>
    </message>
    <message>
        <source>No runs yet in %1. Train the model and its runs appear here.</source>
        <translation>%1 中还没有运行。训练模型后，其运行会显示在这里。</translation>
    </message>
    <message>
        <source>Unstar</source>
        <translation>取消星标</translation>
    </message>
    <message>
        <source>Star</source>
        <translation>加星标</translation>
    </message>
    <message>
        <source>Mark the selected runs (or unmark them when all are starred)</source>
        <translation>为所选运行加星标（全部已加星标时则取消）</translation>
    </message>
    <message>
        <source>Tag…</source>
        <translation>标签…</translation>
    </message>
    <message>
        <source>Add tags to the selected runs</source>
        <translation>为所选运行添加标签</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Tag runs</source>
        <translation>为运行添加标签</translation>
    </message>
    <message numerus="yes">
        <source>Tags to add to %n run(s), separated by commas:</source>
        <translation>
            <numerusform>要添加到 %n 个运行的标签，用逗号分隔：</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message>
        <source>Run %1 (%2) is training now; stop it before deleting it.</source>
        <translation>运行 %1（%2）正在训练；请先停止再删除。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) with their curves and checkpoints from the run store? This cannot be undone.</source>
        <translation>
            <numerusform>从运行存储中删除 %n 个运行及其曲线和检查点？此操作无法撤销。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::SampleResultsModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>True class</source>
        <translation>真实类别</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
</context>
<context>
    <name>lf::ui::SampleResultsView</name>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>All classes</source>
        <translation>全部类别</translation>
    </message>
    <message>
        <source>Correct and incorrect</source>
        <translation>正确和错误</translation>
    </message>
    <message>
        <source>Correct only</source>
        <translation>仅正确</translation>
    </message>
    <message>
        <source>Incorrect only</source>
        <translation>仅错误</translation>
    </message>
    <message>
        <source>Save the rows shown as CSV: sample, label, predicted, confidence, correct</source>
        <translation>将显示的行保存为 CSV：样本、标签、预测、置信度、是否正确</translation>
    </message>
    <message>
        <source>True class</source>
        <translation>真实类别</translation>
    </message>
    <message>
        <source>Export samples</source>
        <translation>导出样本</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>无法导出</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 of %2 samples shown</source>
        <translation>显示 %1 / %2 个样本</translation>
    </message>
</context>
<context>
    <name>lf::ui::SettingsDiffView</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>against</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <source>First run</source>
        <translation>第一次运行</translation>
    </message>
    <message>
        <source>Second run</source>
        <translation>第二次运行</translation>
    </message>
    <message>
        <source>#%1 %2 (%3)</source>
        <translation>#%1 %2（%3）</translation>
    </message>
    <message>
        <source>Train at least one run to see its settings.</source>
        <translation>请至少完成一次训练运行以查看其设置。</translation>
    </message>
    <message>
        <source>dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Pick two different runs.</source>
        <translation>请选择两次不同的运行。</translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) differ between run %1 and run %2.</source>
        <translation>
            <numerusform>运行 %1 与运行 %2 之间有 %n 项设置不同。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lf::ui::StartPage</name>
    <message>
        <source>Show at start</source>
        <translation>启动时显示</translation>
    </message>
    <message>
        <source>Start — Layerforge</source>
        <translation>起始页 — Layerforge</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Blank project</source>
        <translation>空白项目</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Example: CNN on Fashion-MNIST</source>
        <translation>示例：Fashion-MNIST 上的 CNN</translation>
    </message>
    <message>
        <source>Import a model…</source>
        <translation>导入模型…</translation>
    </message>
    <message>
        <source>Open an image folder…</source>
        <translation>打开图像文件夹…</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>Templates</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation>没有最近的项目</translation>
    </message>
</context>
<context>
    <name>lf::ui::SummaryPanel</name>
    <message>
        <source>Layer (type)</source>
        <translation>层（类型）</translation>
    </message>
    <message>
        <source>Output shape</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <source>Param #</source>
        <translation>参数数量</translation>
    </message>
    <message>
        <source>Connected to</source>
        <translation>连接到</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>Total params: %1
Trainable params: %2
Non-trainable params: %3
FLOPs per sample (forward): %4
Estimated training memory at batch %5: %6</source>
        <translation>参数总数：%1
可训练参数：%2
不可训练参数：%3
每样本 FLOPs（前向）：%4
批大小为 %5 时的估计训练内存：%6</translation>
    </message>
    <message>
        <source>Computes in</source>
        <translation>计算精度</translation>
    </message>
    <message>
        <source>The type the layer&apos;s kernel computes in under the training precision policy</source>
        <translation>在训练精度策略下，该层内核进行计算所用的类型</translation>
    </message>
    <message>
        <source>Precision: %1</source>
        <translation>精度：%1</translation>
    </message>
    <message>
        <source>Precision: %1 (%2 of %3 layers compute in %4)</source>
        <translation>精度：%1（%3 层中有 %2 层以 %4 计算）</translation>
    </message>
</context>
<context>
    <name>lf::ui::TensorBoardImport</name>
    <message>
        <source>No runs were imported from %1.</source>
        <translation>未从 %1 导入任何运行。</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n run(s), %1 points, from %2.</source>
        <translation>
            <numerusform>已从 %2 导入 %n 个运行，共 %1 个数据点。</numerusform>
        </translation>
    </message>
    <message>
        <source>Overlay them from the charts&apos; Runs menu.</source>
        <translation>可在图表的“运行”菜单中叠加显示它们。</translation>
    </message>
    <message>
        <source>Skipped %1</source>
        <translation>已跳过 %1</translation>
    </message>
    <message>
        <source>Damaged: %1</source>
        <translation>已损坏：%1</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingCharts</name>
    <message>
        <source>Cannot overlay run %1</source>
        <translation>无法叠加显示运行 %1</translation>
    </message>
    <message>
        <source>Cannot show the earlier steps of run %1</source>
        <translation>无法显示运行 %1 的较早步骤</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write the image %1</source>
        <translation>无法写入图像 %1</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X 轴：</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>实际时间</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Exponential moving average, debiased as in TensorBoard</source>
        <translation>指数移动平均，按 TensorBoard 的方式去偏</translation>
    </message>
    <message>
        <source>Log x</source>
        <translation>对数 x</translation>
    </message>
    <message>
        <source>Log y</source>
        <translation>对数 y</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Overlay earlier runs from the project&apos;s run store</source>
        <translation>叠加显示项目运行存储中的早期运行</translation>
    </message>
    <message>
        <source>Export PNG...</source>
        <translation>导出 PNG...</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>导出 CSV...</translation>
    </message>
    <message>
        <source>No run store for this project yet</source>
        <translation>此项目还没有运行存储</translation>
    </message>
    <message>
        <source>No runs recorded yet</source>
        <translation>尚未记录任何运行</translation>
    </message>
    <message>
        <source>#%1 %2 (%3, %4 steps)</source>
        <translation>#%1 %2（%3，%4 步）</translation>
    </message>
    <message>
        <source>Export charts as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export curves as CSV</source>
        <translation>将曲线导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingController</name>
    <message>
        <source>A training run is already going; stop it first.</source>
        <translation>已有训练正在运行；请先停止它。</translation>
    </message>
    <message>
        <source>starting a new run of %1</source>
        <translation>开始 %1 的新一次训练运行</translation>
    </message>
    <message>
        <source>resuming from checkpoint %1</source>
        <translation>从检查点 %1 恢复训练</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>another project was opened: stopping the run</source>
        <translation>已打开另一个项目：正在停止训练</translation>
    </message>
    <message>
        <source>Cannot train: %1</source>
        <translation>无法训练：%1</translation>
    </message>
    <message>
        <source>%1 processes: %2 %3</source>
        <translation>%1 个进程：%2 %3</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingPanel</name>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Training settings</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <source>Checkpoints and device</source>
        <translation>检查点与设备</translation>
    </message>
    <message>
        <source>Live charts appear here.</source>
        <translation>实时图表将显示在这里。</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Train the project as it is now; later edits apply to the next run</source>
        <translation>按项目当前的状态训练；之后的修改在下一次运行时生效</translation>
    </message>
    <message>
        <source>Cannot train: %1</source>
        <translation>无法训练：%1</translation>
    </message>
    <message>
        <source>A run of several processes cannot pause: Stop ends it, and resuming from its last checkpoint (Checkpoints page) continues it</source>
        <translation>多进程运行无法暂停：“停止”会结束它，从其最后一个检查点恢复（检查点页面）即可继续</translation>
    </message>
    <message>
        <source>Pause between steps; Resume continues the run</source>
        <translation>在步骤之间暂停；“继续”恢复运行</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingProgress</name>
    <message>
        <source>The trainer waits for images more than 10% of the time: add decoding workers, cache the decoded images or use smaller images.</source>
        <translation>训练器有超过 10% 的时间在等待图像：请增加解码线程、缓存解码后的图像或使用更小的图像。</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>%p%  (step %1 of %2)</source>
        <translation>%p%（第 %1/%2 步）</translation>
    </message>
    <message>
        <source>epoch %1/%2  step %3/%4  ETA %5  %6 img/s</source>
        <translation>第 %1/%2 轮  第 %3/%4 步  剩余 %5  %6 张/秒</translation>
    </message>
    <message>
        <source>data-bound: %1% waiting for images</source>
        <translation>受数据限制：%1% 的时间在等待图像</translation>
    </message>
    <message>
        <source>%1 epochs of %2 steps</source>
        <translation>%1 轮，每轮 %2 步</translation>
    </message>
    <message>
        <source>epoch %1/%2 done  %3</source>
        <translation>第 %1/%2 轮完成  %3</translation>
    </message>
    <message>
        <source>paused at epoch %1, step %2</source>
        <translation>已暂停于第 %1 轮第 %2 步</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopped at %p%</source>
        <translation>已停止于 %p%</translation>
    </message>
    <message>
        <source>%p%  done</source>
        <translation>%p%  完成</translation>
    </message>
    <message>
        <source>Images per second of each training process, by rank (rank 0 first)</source>
        <translation>每个训练进程每秒处理的图像数，按 rank 排列（rank 0 在前）</translation>
    </message>
    <message>
        <source>%1 processes: %2 img/s</source>
        <translation>%1 个进程：%2 图像/秒</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingSettingsForm</name>
    <message>
        <source>Early stopping</source>
        <translation>早停</translation>
    </message>
    <message>
        <source>Restore the best weights</source>
        <translation>恢复最佳权重</translation>
    </message>
    <message>
        <source>e.g. momentum=0.9 nesterov=true</source>
        <translation>例如 momentum=0.9 nesterov=true</translation>
    </message>
    <message>
        <source>e.g. decay_steps=1000 decay_rate=0.9</source>
        <translation>例如 decay_steps=1000 decay_rate=0.9</translation>
    </message>
    <message>
        <source>accuracy, top3_accuracy</source>
        <translation>accuracy, top3_accuracy</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控指标</translation>
    </message>
    <message>
        <source>Patience (epochs)</source>
        <translation>耐心值（轮数）</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Optimizer parameters</source>
        <translation>优化器参数</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>学习率调度</translation>
    </message>
    <message>
        <source>Schedule parameters</source>
        <translation>调度参数</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失函数</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>评估指标</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>不限制</translation>
    </message>
    <message>
        <source>A run whose memory estimate exceeds this stops before it allocates</source>
        <translation>内存估算超过此值的训练会在分配内存之前停止</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>%1 is not available on %2: %3</source>
        <translation>%1 在 %2 上不可用：%3</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Grow on demand</source>
        <translation>按需增长</translation>
    </message>
    <message>
        <source>Runs on a GPU: &quot;Grow on demand&quot; takes device memory as the run needs it; a limit caps what the run may hold on the device, and a plan that needs more stops before it starts, saying which batch size fits. Runs on the CPU ignore it.</source>
        <translation>在 GPU 上训练时：“按需增长”按运行所需占用显存；设定上限后，运行在设备上占用的显存不超过该值，需要更多显存的计划会在开始前停止，并给出可行的批大小。在 CPU 上训练时忽略此设置。</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>mixed_bfloat16 / mixed_float16: the heavy layers compute in 16 bits and activations are stored in 16 bits; weights, optimizer state, loss and metrics stay float32. mixed_float16 (GPUs) scales the loss dynamically so small gradients survive</source>
        <translation>mixed_bfloat16 / mixed_float16：计算量大的层以 16 位计算，激活值以 16 位存储；权重、优化器状态、损失和指标保持 float32。mixed_float16（GPU）会动态缩放损失，使较小的梯度不被舍为零</translation>
    </message>
</context>
<context>
    <name>lf::ui::TrainingWorker</name>
    <message>
        <source>out of memory: lower the batch size or the model&apos;s size, then start again</source>
        <translation>内存不足：请减小批大小或模型规模，然后重新开始</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Layerforge deep-learning studio</source>
        <translation>Layerforge 深度学习工作室</translation>
    </message>
    <message>
        <source>Open the built-in example: the tutorial&apos;s CNN on Fashion-MNIST.</source>
        <translation>打开内置示例：教程中基于 Fashion-MNIST 的 CNN。</translation>
    </message>
    <message>
        <source>A project file (*.lfproj) to open.</source>
        <translation>要打开的项目文件 (*.lfproj)。</translation>
    </message>
</context>
</TS>
